import { defineNoun } from '../../command.js';
import { rm } from './rm.js';
import { setPermission } from './set-permission.js';

export const conn = defineNoun({
  name: 'conn',
  examples: ['wsctl conn set-permission gmail pdc_gmail write', 'wsctl conn rm notion pdc_notion --yes'],
  verbs: [setPermission, rm],
});
