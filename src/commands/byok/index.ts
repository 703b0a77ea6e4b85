import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as add } from './add.js';

export function register(byok: Command, app: App): void {
  byok
    .addHelpText('after', examples('wsctl byok add --name groq-fast --provider-url https://api.groq.com/openai/v1 --format groq --model llama-3.3-70b', 'wsctl byok add --help'));
  add(byok, app);
}
