// A secret an MCP tool never takes as an argument (cli.md §8: byok_add's provider key), since an
// argument passes through the model; MCP 2025-11-25 forbids asking for one in form mode too. It
// comes from the server's variable, confirmed as any such call is; else from a page on 127.0.0.1
// that a person pastes it into (URL-mode elicitation, ./page-ask.ts, loaded only then), whose
// submission is their consent; else the call is refused with the command line a person can run.
import type { Ctx, McpSpec } from '../verbs/declare.js';
import { UsageError } from '../errors.js';
import { rememberSecret } from '../common/secrets.js';
import { cleanLine } from '../common/sanitize.js';
import { questionOf } from '../verbs/changes.js';
import { quoted } from './question.js';
import { snake, type ToolDef } from './tools.js';

export type Secret = NonNullable<McpSpec['secret']>;

/** What the page and the question show: the action, the call's facts (labelled, quoted), where, and the person's command line. */
export interface PageRequest {
  /** The command's words: "register model provider". */
  action: string;
  /** Why it matters, in a few words. */
  why?: string;
  facts: [label: string, value: string][];
  /** "provider API key" */
  what: string;
  /** `wsctl byok add … --api-key-stdin` */
  commandLine: string;
}

/** The key a person submitted; `no` for a decline (on the page or the client), `late` for nothing within 10 minutes. */
export type PageAnswer = { key: string } | 'no' | 'late';

/** Whether the client can open a page for a person: it declared URL-mode elicitation. */
export function canShowPage(elicitation: unknown): boolean {
  return typeof elicitation === 'object' && elicitation !== null && (elicitation as { url?: unknown }).url !== undefined;
}

/** Whether the call still passes the secret as an argument. */
export function passesSecret(tool: ToolDef, args: Record<string, unknown>): boolean {
  const secret = tool.spec.secret;
  return secret !== undefined && args[secret.argument] !== undefined;
}

/**
 * The call's arguments without the secret, for a call that passed it: only those of the tool's
 * parameters whose type is right, so that the refusal can name the command line whatever else is wrong.
 */
export function withoutSecret(tool: ToolDef, args: Record<string, unknown>): Record<string, unknown> {
  if (!passesSecret(tool, args)) return args;
  // Never said back, wherever it might be quoted.
  const given = args[tool.spec.secret!.argument];
  if (typeof given === 'string') rememberSecret(given.trim());
  return Object.fromEntries(
    tool.params
      .filter((p) => typeof args[p.name] === (p.schema.type === 'boolean' ? 'boolean' : 'string') && p.schema.type !== 'array')
      .map((p) => [p.name, args[p.name]]),
  );
}

function instead(secret: Secret, line: string): string {
  return `A person can run \`${line}\`, or start the server with ${secret.env} set.`;
}

/** The refusal of a call that passes the secret (exit code 2). */
export function secretPassed(tool: ToolDef, line: string): UsageError {
  const secret = tool.spec.secret!;
  return new UsageError(
    `${tool.name} takes no ${secret.argument}: a ${secret.what} never passes through the model, and nothing was sent. ${instead(secret, line)}`,
  );
}

/** The refusal of a call whose client cannot show a page, on a server without the variable (exit code 2). */
function noPage(tool: ToolDef, secret: Secret, line: string): UsageError {
  return new UsageError(
    `${tool.name} needs a person to give the ${secret.what}, and this client cannot open a page for it (URL-mode elicitation): nothing was sent. ${instead(secret, line)}`,
  );
}

export interface SecretWays {
  /** The confirmation every such call has (the form question, or the refusal naming the command line). */
  confirm(): Promise<void>;
  /** Shows the person the page; undefined when the client cannot. */
  page?(request: PageRequest): Promise<PageAnswer>;
  /** The command line a person can run instead, with the secret's flag. */
  line(): string;
  /** The error of a declined call (`late`: nothing within 10 minutes). */
  declined(late: boolean): Error;
}

/**
 * What the page shows, as the question would: the action, the facts the verb names first, then
 * the call's other values (each quoted, on one line, at most 64 characters), the profile and the
 * base URL (the sandbox as `the sandbox`).
 */
async function pageRequest(tool: ToolDef, opts: Record<string, unknown>, ctx: Ctx, what: string, line: string): Promise<PageRequest> {
  const asked = questionOf(tool.path, tool.verb, opts);
  const named = asked?.facts ?? [];
  const rest = tool.params
    .filter((p) => typeof opts[p.key] === 'string' && !named.some(([key]) => key === p.key))
    .map((p) => [p.key, opts[p.key] as string] as [string, string]);
  const label = (key: string) => tool.params.find((p) => p.key === key)?.name ?? snake(key);
  const t = await ctx.target();
  return {
    action: asked?.action ?? tool.path.join(' '),
    why: asked?.said,
    facts: [
      ...[...named, ...rest].map(([key, value]) => [label(key), quoted(value)] as [string, string]),
      ['Profile', `'${cleanLine(t.profile)}'`],
      ['Base URL', t.keySource === 'sandbox' ? 'the sandbox' : cleanLine(t.baseUrl ?? 'none')],
    ],
    what,
    commandLine: line,
  };
}

/** The secret for this call: the server's variable (after the confirmation), else what a person submits on the page. */
export async function personSecret(tool: ToolDef, opts: Record<string, unknown>, ctx: Ctx, ways: SecretWays): Promise<string> {
  const secret = tool.spec.secret!;
  const fromEnv = ctx.env[secret.env];
  if (fromEnv) {
    await ways.confirm();
    return fromEnv;
  }
  if (!ways.page) throw noPage(tool, secret, ways.line());
  const answer = await ways.page(await pageRequest(tool, opts, ctx, secret.what, ways.line()));
  if (answer === 'no' || answer === 'late') throw ways.declined(answer === 'late');
  rememberSecret(answer.key.trim());
  return answer.key;
}
