import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as list } from './list.js';
import { register as rm } from './rm.js';
import { register as use } from './use.js';

export function register(profile: Command, app: App): void {
  profile
    .addHelpText('after', examples('wsctl profile list', 'wsctl profile use work'));
  list(profile, app);
  use(profile, app);
  rm(profile, app);
}
