import type { Command } from 'commander';
import { examples, requireId, type App, type Ctx, type Result } from '../../command.js';
import { remove } from '../../removal.js';

export function register(device: Command, app: App): void {
  device
    .command('rm')
    .alias('remove')
    .description('Remove a registered device; asks to confirm on a terminal, else needs --yes')
    .argument('<device_id>', 'the device id')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('wsctl device rm dev_phone', "wsctl device rm dev_phone --yes --jq '.success'"))
    .action((deviceId: string, flags: { yes?: boolean }, command: Command) => app.run(command, { deviceId, yes: !!flags.yes }, run));
}

export async function run(opts: { deviceId: string; yes: boolean }, ctx: Ctx): Promise<Result> {
  requireId(opts.deviceId, 'device_id');
  return remove(ctx, {
    action: `remove device '${opts.deviceId}'`,
    endpoint: 'removeDevice',
    params: { device_id: opts.deviceId },
    what: `device '${opts.deviceId}'`,
    yes: opts.yes,
    spinner: 'Removing device',
    done: `Removed device '${opts.deviceId}'.`,
  });
}
