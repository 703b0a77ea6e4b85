import { defineNoun } from '../../command.js';
import { list } from './list.js';
import { rm } from './rm.js';
import { use } from './use.js';

export const profile = defineNoun({
  name: 'profile',
  examples: ['wsctl profile list', 'wsctl profile use work'],
  verbs: [list, use, rm],
});
