import { defineNoun } from '../../verbs/declare.js';
import { rm } from './rm.js';
import { setPermission } from './set-permission.js';

export const conn = defineNoun({
  name: 'conn',
  summary: 'Change or remove connections to third-party apps',
  examples: ['wsctl conn set-permission gmail pdc_gmail write', 'wsctl conn rm notion pdc_notion --yes'],
  verbs: [setPermission, rm],
});
