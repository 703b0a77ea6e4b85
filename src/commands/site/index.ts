import { defineNoun } from '../../verbs/declare.js';
import { create } from './create.js';

export const site = defineNoun({
  name: 'site',
  summary: 'Create websites in the workspace',
  examples: ['wsctl site create launch --variant marketing', 'wsctl site create notes --parent blogs --variant blog'],
  verbs: [create],
});
