import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as create } from './create.js';
import { register as list } from './list.js';

export function register(keys: Command, app: App): void {
  keys
    .addHelpText('after', examples('wsctl keys list', 'wsctl keys create ci --save-as ci'));
  create(keys, app);
  list(keys, app);
}
