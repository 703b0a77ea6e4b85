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
  path?(opts: Record<string, unknown>): string;
  args?: Record<string, { syntax: string }>;
  flags?: Record<string, unknown>;
  ids?: { takes?: Record<string, unknown> };
  mcp?: { confirm?(opts: never): Asked; localFile?: string } | { none: string };
}

/** What a verb declares it asks a person of every call (only for what no rule here sees: data that leaves, a provider). */
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

// The parameters whose value makes a call ask: --force replaces what exists, a permission may widen access.
const REPLACES = 'force';
const WIDENS = 'permission';

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

/** Whether this call sends DELETE: then a person confirms it, on every door (cli.md §5, §8). */
export function sendsDelete(verb: Declared, opts: Record<string, unknown>): boolean {
  return methodsOf(verb, opts).includes('DELETE');
}

/**
 * Whether some call of the verb sends DELETE: a verb whose endpoints delete, or one that may call
 * any path with any method (`api -X DELETE`). Such a verb takes --yes on the command line.
 */
export function mayDelete(verb: Declared): boolean {
  return verb.endpoints === 'any' || sendsDelete(verb, {});
}

/** What a command changes, whatever its options (`api` may send DELETE). */
export function commandChanges(verb: Declared): Changes {
  return mayDelete(verb) ? 'destructive' : level(methodsOf(verb, {}));
}

/** What one call changes: by the methods it sends (`api` by its method); --force replaces what exists. */
export function callChanges(verb: Declared, opts: Record<string, unknown>): Changes {
  if (opts[REPLACES] === true) return 'destructive';
  return level(methodsOf(verb, opts));
}

/** A permission given to a connection widens its access unless it is `read`. */
function widensAccess(opts: Record<string, unknown>): boolean {
  return typeof opts[WIDENS] === 'string' && opts[WIDENS] !== 'read';
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
  if (sendsDelete(verb, opts)) {
    // A verb that may call any path says what it sends: `send DELETE`, and the path with its query.
    if (verb.endpoints === 'any' && verb.path)
      return { why: 'deletes', action: 'send DELETE', facts: [['path', verb.path(opts)]], said: 'It cannot be undone.' };
    return { why: 'deletes', action: actionOf(path), facts: given(targets(verb), opts), said: 'It cannot be undone.' };
  }
  if (opts[REPLACES] === true) {
    const values = given([...Object.keys(verb.args ?? {}), 'saveAs'], opts);
    return { why: 'replaces', action: actionOf(path), facts: values, said: 'With force it replaces what exists.' };
  }
  if (widensAccess(opts))
    return {
      why: 'widens',
      action: actionOf(path),
      facts: given([...targets(verb), WIDENS], opts),
      said: 'It gives more than read access.',
    };
  if (!declaresQuestion(verb)) return undefined;
  const declared = verb.mcp.confirm(opts as never);
  const key = declared.key ?? verb.mcp.localFile ?? 'target';
  const facts = declared.facts ?? (declared.target !== undefined ? [[key, declared.target] as [string, string]] : []);
  return { why: 'declared', action: declared.action, facts, said: declared.why };
}

/** Whether the verb declares a question for every call of its tool (McpSpec.confirm). */
function declaresQuestion(verb: Declared): verb is Declared & { mcp: { confirm(opts: never): Asked; localFile?: string } } {
  return !!verb.mcp && 'confirm' in verb.mcp && typeof verb.mcp.confirm === 'function';
}

/**
 * Whether a person confirms the calls of a verb, known from its declaration alone (`wsctl mcp`'s
 * tools and their help): every call when its endpoints delete or it declares a question; some,
 * by their values, when it takes --force or a permission or may call any path; else none.
 */
export function asksOf(verb: Declared): 'always' | 'sometimes' | 'never' {
  // A verb of the endpoint table sends the same methods on every call.
  if ((verb.endpoints !== 'any' && sendsDelete(verb, {})) || declaresQuestion(verb)) return 'always';
  const keys = [...Object.keys(verb.args ?? {}), ...Object.keys(verb.flags ?? {})];
  return verb.endpoints === 'any' || keys.includes(REPLACES) || keys.includes(WIDENS) ? 'sometimes' : 'never';
}
