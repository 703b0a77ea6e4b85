// The shared shape of a removal by id (the endpoints `Removal.endpoint` names): DELETE, and treat
// any 2xx as success unless a JSON body says `success: false` (the interface shows no success body
// for these). The pipeline has had a person confirm it already (src/verbs/invoke.ts).
import { call, saysFailure, type Call, type Ctx } from './declare.js';
import { request, type EndpointName, type Endpoints } from '../service.js';

/** The endpoints of the table that send DELETE: a new one is a removal without a line here. */
type Deleting = { [N in EndpointName]: Endpoints[N]['method'] extends 'DELETE' ? N : never }[EndpointName];

export interface Removal {
  /** "remove device 'dev_phone'": what the errors name. */
  action: string;
  endpoint: Deleting;
  params: Record<string, string>;
  what: string;
  spinner: string;
  done: string;
}

export async function remove(_ctx: Ctx, removal: Removal): Promise<Call> {
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
