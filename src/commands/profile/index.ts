import { defineNoun } from '../../verbs/declare.js';
import { agents } from './agents.js';
import { list } from './list.js';
import { pin } from './pin.js';
import { rm } from './rm.js';
import { unpin } from './unpin.js';
import { use } from './use.js';

export const profile = defineNoun({
  name: 'profile',
  summary: 'List, switch and delete config profiles',
  examples: ['wsctl profile list', 'wsctl profile pin work', 'wsctl profile agents work read-only'],
  verbs: [list, use, pin, unpin, agents, rm],
});
