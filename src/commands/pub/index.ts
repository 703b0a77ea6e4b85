import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as rm } from './rm.js';

export function register(pub: Command, app: App): void {
  pub
    .addHelpText('after', examples('wsctl pub rm pub_demo', 'wsctl pub rm pub_demo --yes'));
  rm(pub, app);
}
