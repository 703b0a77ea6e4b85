// What a command, and one call of it, changes in the workspace (cli.md §12's words), and why a person
// confirms a call: the one classification that the MCP tools' offering and hints, the confirmation
// on every door and the agent policy read (STYLE 21). A command that sends DELETE is destructive
// because of what it sends: a new one gets every safeguard without a line of its own.
import type { Method } from '../http/index.js';
import { endpoints, type EndpointName } from '../service.js';

/** none: local, or reads alone (GET); write: adds or changes; destructive: deletes (DELETE) or replaces (--force). */
export type Changes = 'none' | 'write' | 'destructive';

/** What the classification reads of a verb's declaration (VerbSpec in src/verbs/declare.ts). */
export interface Declared {
  endpoints: EndpointName[] | 'any';
  method?(opts: Record<string, unknown>): Method;
  args?: Record<string, { syntax: string }>;
  ids?: { takes?: Record<string, unknown> };
  mcp?: { confirm?(opts: never): Asked | undefined; localFile?: string } | { none: string };
}

/** What a verb declares it asks a person (only for what no rule here sees: data that leaves, a provider). */
export interface Asked {
  /** The command's words for it: "register model provider". */
  action: string;
  /** The values it names, each by the key of its parameter, in the order a person should read them. */
  facts?: [key: string, value: string][];
  /** One value, named by the parameter `key` names (a local file). */
  target?: string;
  key?: string;
  /** Why it matters, in a few words. */
  why?: string;
}

/** Why a person confirms a call, what it does in the command's words, and the call's values it names (by key). */
export interface Question {
  why: 'deletes' | 'replaces' | 'widens' | 'declared';
  action: string;
  facts: [key: string, value: string][];
  said?: string;
}

/** The methods a verb would send with these options: its endpoints', or for `api` the one it would use. */
export function methodsOf(verb: Declared, opts: Record<string, unknown>): Method[] {
  if (verb.endpoints !== 'any') return verb.endpoints.map((name) => endpoints[name].method);
  // A verb that may call anything and cannot say how is taken to change the workspace.
  return [verb.method?.(opts) ?? 'POST'];
}

function level(methods: Method[]): Changes {
  if (methods.includes('DELETE')) return 'destructive';
  return methods.every((m) => m === 'GET') ? 'none' : 'write';
}

/** Whether the verb's own endpoints delete: then it asks [y/N] or takes --yes, and its tool asks a person. */
export function deletes(verb: Declared): boolean {
  return verb.endpoints !== 'any' && verb.endpoints.some((name) => endpoints[name].method === 'DELETE');
}

/** What a command changes, whatever its options (`api` may send DELETE). */
export function commandChanges(verb: Declared): Changes {
  return verb.endpoints === 'any' ? 'destructive' : level(methodsOf(verb, {}));
}

/** What one call changes: by the methods it sends (`api` by its method); --force replaces what exists. */
export function callChanges(verb: Declared, opts: Record<string, unknown>): Changes {
  if (opts.force === true) return 'destructive';
  return level(methodsOf(verb, opts));
}

/** A permission given to a connection widens its access unless it is `read`. */
function widensAccess(opts: Record<string, unknown>): boolean {
  return typeof opts.permission === 'string' && opts.permission !== 'read';
}

const WORDS: Record<string, string> = {
  rm: 'remove',
  'set-permission': 'set the permission of',
  conn: 'connection',
  pub: 'publication',
  keys: 'key',
  convo: 'conversation',
  byok: 'model provider',
};

/** The command's words as a person says them: ['device', 'rm'] → "remove device". */
export function actionOf(path: string[]): string {
  const said = path.map((w) => WORDS[w] ?? w.replace(/-/g, ' '));
  return (said.length > 1 ? [...said.slice(1), ...said.slice(0, 1)] : said).join(' ');
}

/** The positional arguments that name what a call acts on: the ids it takes, else every argument. */
function targets(verb: Declared): string[] {
  const args = Object.keys(verb.args ?? {});
  const ids = args.filter((key) => verb.ids?.takes?.[key] !== undefined);
  return ids.length > 0 ? ids : args;
}

function given(keys: string[], opts: Record<string, unknown>): [string, string][] {
  return keys.filter((k) => typeof opts[k] === 'string').map((k) => [k, opts[k] as string]);
}

/**
 * Why a person confirms this call, or undefined when nobody need: it deletes, replaces (--force),
 * widens a connection's access, or its verb declares that it asks (data leaves, a provider is
 * registered). The command line asks only for a deletion: there --force and the rest were typed by a person.
 */
export function questionOf(path: string[], verb: Declared, opts: Record<string, unknown>): Question | undefined {
  if (deletes(verb)) return { why: 'deletes', action: actionOf(path), facts: given(targets(verb), opts), said: 'It cannot be undone.' };
  if (opts.force === true) {
    const values = given([...Object.keys(verb.args ?? {}), 'saveAs'], opts);
    return { why: 'replaces', action: actionOf(path), facts: values, said: 'With force it replaces what exists.' };
  }
  if (widensAccess(opts))
    return {
      why: 'widens',
      action: actionOf(path),
      facts: given([...targets(verb), 'permission'], opts),
      said: 'It gives more than read access.',
    };
  const declared = verb.mcp && 'confirm' in verb.mcp ? verb.mcp.confirm?.(opts as never) : undefined;
  if (!declared) return undefined;
  const key = declared.key ?? ('localFile' in verb.mcp! ? verb.mcp.localFile : undefined) ?? 'target';
  const facts = declared.facts ?? (declared.target !== undefined ? [[key, declared.target] as [string, string]] : []);
  return { why: 'declared', action: declared.action, facts, said: declared.why };
}
