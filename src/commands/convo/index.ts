import { defineNoun } from '../../verbs/declare.js';
import { show } from './show.js';

export const convo = defineNoun({
  name: 'convo',
  summary: 'Read conversations',
  examples: ['wsctl convo show conv_demo', 'wsctl convo show conv_demo --markdown > offsite.md'],
  verbs: [show],
});
