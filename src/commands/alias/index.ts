import { defineNoun } from '../../verbs/declare.js';
import { list } from './list.js';
import { rm } from './rm.js';
import { set } from './set.js';

export const alias = defineNoun({
  name: 'alias',
  summary: 'Name a command line: set, list and remove aliases',
  examples: ["wsctl alias set rmdev 'device rm $1 --yes'", 'wsctl alias list', 'wsctl alias rm ks'],
  verbs: [set, list, rm],
});
