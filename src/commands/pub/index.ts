import { defineNoun } from '../../verbs/declare.js';
import { rm } from './rm.js';

export const pub = defineNoun({
  name: 'pub',
  summary: 'Manage published conversations',
  examples: ['wsctl pub rm pub_demo', 'wsctl pub rm pub_demo --yes'],
  verbs: [rm],
});
