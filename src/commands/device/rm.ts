import { arg, defineVerb, parseId, type Call, type Ctx } from '../../verbs/declare.js';
import { remove } from '../../verbs/removal.js';

export const rm = defineVerb({
  name: 'rm',
  aliases: ['remove'],
  summary: 'Remove a registered device',
  args: { deviceId: arg('<device_id>', 'the device id', parseId) },
  examples: ['wsctl device rm dev_phone', "wsctl device rm dev_phone --yes --jq '.success'"],
  endpoints: ['removeDevice'],
  sample: ['device', 'rm', 'dev_laptop', '--yes'],
  run,
});

export async function run(opts: { deviceId: string }, ctx: Ctx): Promise<Call> {
  return remove(ctx, {
    action: `remove device '${opts.deviceId}'`,
    endpoint: 'removeDevice',
    params: { device_id: opts.deviceId },
    what: `device '${opts.deviceId}'`,
    spinner: 'Removing device',
    done: `Removed device '${opts.deviceId}'.`,
  });
}
