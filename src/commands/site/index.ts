import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as create } from './create.js';

export function register(site: Command, app: App): void {
  site
    .addHelpText('after', examples('wsctl site create launch --variant marketing', 'wsctl site create notes --parent blogs --variant blog'));
  create(site, app);
}
