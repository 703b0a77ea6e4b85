import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as rm } from './rm.js';
import { register as setPermission } from './set-permission.js';

export function register(program: Command, app: App): void {
  const conn = program
    .command('conn')
    .description('Change or remove connections to third-party apps')
    .addHelpText('after', examples('wsctl conn set-permission gmail pdc_gmail write', 'wsctl conn rm notion pdc_notion --yes'));
  setPermission(conn, app);
  rm(conn, app);
}
