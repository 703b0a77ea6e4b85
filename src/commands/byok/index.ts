import { defineNoun } from '../../verbs/declare.js';
import { add } from './add.js';

export const byok = defineNoun({
  name: 'byok',
  summary: 'Register bring-your-own-model configurations',
  examples: [
    'wsctl byok add --name groq-fast --provider-url https://api.groq.com/openai/v1 --format groq --model llama-3.3-70b',
    'wsctl byok add --help',
  ],
  verbs: [add],
});
