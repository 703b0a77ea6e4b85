import type { Command } from 'commander';
import { path } from '../../api.js';
import { examples, requireId, saysFailure, type App, type Ctx, type Result } from '../../command.js';
import { confirmDestructive } from '../../confirm.js';

export function register(device: Command, app: App): void {
  device
    .command('rm')
    .alias('remove')
    .description('Remove a registered device')
    .argument('<device_id>', 'the device id')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('wsctl device rm dev_phone', 'wsctl device rm dev_phone --yes --json'))
    .action((deviceId: string, flags: { yes?: boolean }, command: Command) => app.run(command, (ctx) => run({ deviceId, yes: !!flags.yes }, ctx)));
}

export async function run(opts: { deviceId: string; yes: boolean }, ctx: Ctx): Promise<Result> {
  requireId(opts.deviceId, 'device_id');
  await confirmDestructive(ctx, `remove device '${opts.deviceId}'`, opts.yes);
  const api = await ctx.api();
  // The interface shows no success body: any 2xx is success, unless JSON says success: false.
  const response = await ctx.out.spin(
    'Removing device',
    api.request({ method: 'DELETE', path: path`/devices/${opts.deviceId}`, anyBody: true, what: `device '${opts.deviceId}'` }),
  );
  const body = response.isJson ? response.body : undefined;
  const refused = saysFailure(body);
  return {
    json: body ?? { success: true },
    human: (out) => {
      if (!refused) out.done(`Removed device '${opts.deviceId}'.`);
    },
    failure: refused ? `The service did not remove device '${opts.deviceId}' (success: false).` : undefined,
  };
}
