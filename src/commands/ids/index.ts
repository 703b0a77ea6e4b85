import { defineNoun } from '../../verbs/declare.js';
import { forget } from './forget.js';
import { list } from './list.js';

export const ids = defineNoun({
  name: 'ids',
  summary: 'List or forget the ids wsctl remembers for completion and choosing',
  verbs: [forget],
  self: list,
});
