import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as show } from './show.js';

export function register(program: Command, app: App): void {
  const convo = program
    .command('convo')
    .description('Read conversations')
    .addHelpText('after', examples('wsctl convo show conv_demo', 'wsctl convo show conv_demo --markdown > offsite.md'));
  show(convo, app);
}
