// The shared shape of a removal by id (the endpoints `Removal.endpoint` names): confirm, DELETE,
// and treat any 2xx as success unless a JSON body says `success: false` (the interface shows no
// success body for these).
import { call, saysFailure, type Call, type Ctx } from './declare.js';
import { confirmDestructive } from './confirm.js';
import { request } from '../service.js';

export interface Removal {
  /** "remove device 'dev_phone'": what the prompt and the errors name. */
  action: string;
  endpoint: 'removeDevice' | 'removePublication';
  params: Record<string, string>;
  what: string;
  yes: boolean;
  spinner: string;
  done: string;
}

export async function remove(ctx: Ctx, removal: Removal): Promise<Call> {
  await confirmDestructive(ctx, removal.action, removal.yes);
  return call({
    request: { ...request(removal.endpoint, { params: removal.params as never }), what: removal.what },
    spinner: removal.spinner,
    answer(response) {
      const body = response.isJson ? response.body : undefined;
      const refused = saysFailure(body);
      return {
        json: body ?? { success: true },
        human: (out) => {
          if (!refused) out.done(removal.done);
        },
        failure: refused ? `The service did not ${removal.action} (success: false).` : undefined,
      };
    },
  });
}
