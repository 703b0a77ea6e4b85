// The service calls of every declared verb (src/commands/**: each verb names the endpoints it calls
// and a sample argv that succeeds against the seeded sandbox). The fault, hostile-text, dry-run and
// end-to-end matrices iterate them; test/service.test.ts checks that every endpoint is reached and
// that each verb calls exactly the endpoints it declares.
import { join } from 'node:path';
import { declaredVerbs, type DeclaredVerb } from '../src/cli/program.js';
import { compileTemplate, endpointNames, endpoints, matchTemplate, type EndpointName } from '../src/service.js';
import { ROOT } from './helpers.js';

/** Every verb a user can run (the hidden completion helper left out), as declared. */
export const VERBS: DeclaredVerb[] = (await declaredVerbs()).filter((v) => !v.hidden);

/** A sample's argv, its fixture files made absolute (samples name them from the repository's root). */
export const argvOf = (sample: string[]): string[] => sample.map((a) => (a.startsWith('test/fixtures/') ? join(ROOT, a) : a));

/** Every sample of a verb: its sample, then the others. */
export const samplesOf = (v: DeclaredVerb): string[][] => [v.verb.sample, ...(v.verb.moreSamples ?? [])].map(argvOf);

/** The verbs that call no endpoint of the table ("auth token", "profile list", …). */
export const LOCAL_COMMANDS = VERBS.filter((v) => v.verb.endpoints !== 'any' && v.verb.endpoints.length === 0).map((v) => v.path.join(' '));

/** The endpoint a request goes to: method and path against the table. */
export function endpointOf(method: string, path: string): EndpointName | undefined {
  return endpointNames.find(
    (name) => endpoints[name].method === method && matchTemplate(compileTemplate(endpoints[name].path), path) !== undefined,
  );
}

export interface ServiceCall {
  endpoint: EndpointName;
  /** Arguments that send a valid request; destructive ones with --yes only when asked for. */
  args: string[];
}

/**
 * Every sample that calls the service, with the endpoint it calls first (`api`, which may call any
 * path, by the path of its sample). Samples of destructive verbs carry --yes: it is kept only with
 * `yes`, so that without it the command would ask. `auth login` and `auth status` call the service
 * only to check a key (their samples read it from stdin or the profile): test/commands/auth.test.ts
 * covers their answers to a rejected key and to faults.
 */
export function serviceCalls(options: { yes?: boolean } = {}): ServiceCall[] {
  return VERBS.filter((v) => v.path[0] !== 'auth').flatMap((v) =>
    samplesOf(v).flatMap((sample) => {
      const { endpoints: declared } = v.verb;
      const endpoint = declared === 'any' ? endpointOf('GET', sample[v.path.length] ?? '') : declared[0];
      if (!endpoint) return [];
      const args = options.yes ? sample : sample.filter((a) => a !== '--yes' && a !== '-y');
      return [{ endpoint, args }];
    }),
  );
}
