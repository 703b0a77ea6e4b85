import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as rm } from './rm.js';
import { register as setPermission } from './set-permission.js';

export function register(conn: Command, app: App): void {
  conn
    .addHelpText('after', examples('wsctl conn set-permission gmail pdc_gmail write', 'wsctl conn rm notion pdc_notion --yes'));
  setPermission(conn, app);
  rm(conn, app);
}
