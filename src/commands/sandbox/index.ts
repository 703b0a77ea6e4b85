import { defineNoun } from '../../verbs/declare.js';
import { reset } from './reset.js';
import { serve } from './serve.js';
import { stop } from './stop.js';

export const sandbox = defineNoun({
  name: 'sandbox',
  summary: 'Run or reset the local sandbox service',
  examples: ['eval "$(wsctl sandbox serve --detach)"', 'wsctl sandbox stop', 'wsctl sandbox reset'],
  verbs: [serve, stop, reset],
});
