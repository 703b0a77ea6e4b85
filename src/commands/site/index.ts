import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as create } from './create.js';

export function register(program: Command, app: App): void {
  const site = program
    .command('site')
    .description('Create websites in the workspace')
    .addHelpText('after', examples('wsctl site create launch --variant marketing'));
  create(site, app);
}
