import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as rm } from './rm.js';

export function register(device: Command, app: App): void {
  device
    .addHelpText('after', examples('wsctl device rm dev_phone', 'wsctl device rm dev_phone --yes'));
  rm(device, app);
}
