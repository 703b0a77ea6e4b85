import { defineNoun } from '../../verbs/declare.js';
import { create } from './create.js';
import { list } from './list.js';

export const keys = defineNoun({
  name: 'keys',
  summary: "Create and list the workspace's API keys",
  examples: ['wsctl keys list', 'wsctl keys create ci --save-as ci'],
  verbs: [create, list],
});
