import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as rm } from './rm.js';

export function register(program: Command, app: App): void {
  const pub = program
    .command('pub')
    .description('Manage published conversations')
    .addHelpText('after', examples('wsctl pub rm pub_demo', 'wsctl pub rm pub_demo --yes'));
  rm(pub, app);
}
