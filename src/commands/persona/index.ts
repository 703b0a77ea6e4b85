import { defineNoun } from '../../verbs/declare.js';
import { uploadAvatar } from './upload-avatar.js';
import { versions } from './versions.js';

export const persona = defineNoun({
  name: 'persona',
  summary: 'Published versions and avatars of personas',
  examples: ['wsctl persona versions persona_demo', 'wsctl persona upload-avatar ./ada.png'],
  verbs: [versions, uploadAvatar],
});
