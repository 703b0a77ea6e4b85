import { defineNoun } from '../../verbs/declare.js';
import { rm } from './rm.js';

export const device = defineNoun({
  name: 'device',
  summary: 'Manage registered devices',
  examples: ['wsctl device rm dev_phone', 'wsctl device rm dev_phone --yes'],
  verbs: [rm],
});
