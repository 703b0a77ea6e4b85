// The MCP tools of `wsctl mcp`, made from the verbs' declarations (cli.md §8): one per command that
// calls the service, named <noun>_<verb>, in the order of `wsctl --help`. A tool's arguments are its
// command's arguments and flags in snake case (less the flags a terminal alone needs, plus what the
// verb's `mcp` adds); what it changes, and whether a person confirms its calls, is what
// src/verbs/changes.ts says of its command.
import * as z from 'zod/mini';
import type { McpSpec, Param, VerbDecl } from '../verbs/declare.js';
import { cliName } from '../verbs/invoke.js';
import { responseSchemas } from '../schemas.js';
import { endpoints, type Endpoint } from '../service.js';
import { asksOf, commandChanges, mayDelete, type Changes } from '../verbs/changes.js';

export interface ToolParam {
  key: string;
  /** The tool's name for it: save_as. */
  name: string;
  param: Param<unknown>;
  kind: 'arg' | 'flag';
  schema: Record<string, unknown>;
}

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties: false };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export interface ToolDef {
  name: string;
  /** The command's words: ['keys', 'create']. */
  path: string[];
  /** none: reads alone; write; destructive: deletes (offered only with --allow-destructive). */
  changes: Changes;
  /** Whether a person confirms its calls: every call, some (by their arguments), or none. */
  asks: 'always' | 'sometimes' | 'never';
  verb: VerbDecl;
  spec: McpSpec;
  params: ToolParam[];
  listing: ToolListing;
}

/** snake_case of a name as the command line writes it: '--save-as' → 'save_as'. */
export function snake(name: string): string {
  return name
    .replace(/^-+/, '')
    .replace(/-/g, '_')
    .replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The tool's name for a parameter: its command-line name in snake case. */
export function toolName(param: Param<unknown>, kind: 'arg' | 'flag'): string {
  return snake(cliName(param, kind));
}

/** Whether a declared verb is a tool: it calls endpoints of the table, and does not say it is none. */
export function isTool(verb: VerbDecl): boolean {
  return Array.isArray(verb.endpoints) && verb.endpoints.length > 0 && !(verb.mcp && 'none' in verb.mcp);
}

function paramSchema(param: Param<unknown>, kind: 'arg' | 'flag', override?: Record<string, unknown>): Record<string, unknown> {
  const valued = kind === 'arg' || param.syntax.includes('<');
  const base: Record<string, unknown> = !valued
    ? { type: 'boolean' }
    : param.repeated
      ? { type: 'array', items: { type: 'string' } }
      : param.choices
        ? { type: 'string', enum: [...param.choices] }
        : { type: 'string' };
  return { ...base, ...override, description: param.help };
}

/**
 * A JSON Schema that every client reads alike (the MCP Inspector's --strict check): `anyOf` for a
 * list of types, and no empty schema — an open object says nothing of its other properties.
 */
export function portable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portable);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'additionalProperties' && (value === true || isEmpty(value))) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isEmpty(v) ? ANY : portable(v)]));
    } else if ((key === 'items' || key === 'additionalProperties') && isEmpty(value)) out[key] = ANY;
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      out[key] = (value as unknown[]).map((v) => (isEmpty(v) ? ANY : portable(v)));
    else out[key] = portable(value);
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { ...rest, anyOf: (type as string[]).map((t) => ({ type: t })) };
  }
  return out;
}

/** Any JSON value, said without an empty schema. */
const ANY = { anyOf: ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type })) };

function isEmpty(value: unknown): boolean {
  return (
    value === true ||
    (!!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).filter((k) => k !== 'description').length === 0)
  );
}

/** The argument every tool takes (cli.md §8): a jq filter of its document, run by src/mcp/jq-filter.ts. */
export const JQ_ARGUMENT = 'jq';

const JQ_INPUT = {
  type: 'string',
  description:
    'A jq 1.8 filter of the document, as `--jq` takes: the result is then {"jq": [each value it gives]}, and the text each value as compact JSON, one per line',
};

/** What a call with `jq` returns instead of the document. */
const JQ_OUTPUT = {
  properties: { [JQ_ARGUMENT]: { type: 'array', items: ANY, description: 'The values the `jq` filter gave, in order' } },
  required: [JQ_ARGUMENT],
};

/** The dialect of the schemas wsctl declares: JSON Schema 2020-12, MCP's default (2025-11-25) and help --json's (cli.md §12). */
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema (2020-12, portable) of a tool's --json document: the response of its first
 * endpoint, or `{success}` for a body the service need not send. help --json gives it with its
 * `$schema`; the tool declares it as one branch of its output schema.
 */
export function documentSchema(verb: VerbDecl): Record<string, unknown> {
  const endpoint: Endpoint = endpoints[(verb.endpoints as (keyof typeof endpoints)[])[0]!];
  const zod =
    endpoint.anyBody || !endpoint.response ? z.looseObject({ success: z.optional(z.boolean()) }) : responseSchemas[endpoint.response]();
  return portable(z.toJSONSchema(zod, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as Record<string, unknown>;
}

/**
 * What the verb returns as its --json document, or the values of a `jq` filter: `type: "object"`
 * at the root, which clients look for, and each shape a branch of `anyOf`.
 */
function outputSchema(verb: VerbDecl): ToolListing['outputSchema'] {
  const { $defs, ...document } = documentSchema(verb);
  // References (#/$defs/...) are read from the root: the definitions stay there.
  return { type: 'object', ...($defs ? { $defs } : {}), anyOf: [document, JQ_OUTPUT] };
}

/** A verb as the command tree declares it (src/cli/program.ts's declaredVerbs). */
export interface DeclaredVerb {
  path: string[];
  verb: VerbDecl;
  hidden: boolean;
}

/** The tools of the declared verbs, in their order (the order of `wsctl --help`). */
export function toolsOf(verbs: DeclaredVerb[]): ToolDef[] {
  return verbs
    .filter((v) => !v.hidden && isTool(v.verb))
    .map(({ path, verb }) => {
      const spec = (verb.mcp ?? {}) as McpSpec;
      const changes = commandChanges(verb);
      const declared: [string, Param<unknown>, 'arg' | 'flag'][] = [
        ...Object.entries((verb.args ?? {}) as Record<string, Param<unknown>>).map(
          ([k, p]) => [k, p, 'arg'] as [string, Param<unknown>, 'arg'],
        ),
        ...Object.entries({ ...(verb.flags ?? {}), ...(spec.extra ?? {}) } as Record<string, Param<unknown>>).map(
          ([k, p]) => [k, p, 'flag'] as [string, Param<unknown>, 'flag'],
        ),
      ];
      const params = declared
        // A deletion's person answers through the client, never through a `yes` the agent passes.
        .filter(([key]) => !spec.drop?.includes(key) && !(key === 'yes' && mayDelete(verb)))
        .map(([key, param, pkind]) => {
          const name = toolName(param, pkind);
          return { key, name, param, kind: pkind, schema: paramSchema(param, pkind, spec.schema?.[key]) };
        });
      const required = params.filter((p) => (p.kind === 'arg' ? p.param.syntax.startsWith('<') : p.param.required)).map((p) => p.name);
      const name = path.map(snake).join('_');
      const title = `wsctl ${path.join(' ')}`;
      const methods = (verb.endpoints as (keyof typeof endpoints)[]).map((e) => endpoints[e] as Endpoint);
      const listing: ToolListing = {
        name,
        title,
        description: [spec.description ?? verb.summary, spec.note].filter(Boolean).join('. ').replace(/\.\./g, '.'),
        inputSchema: {
          type: 'object',
          properties: { ...Object.fromEntries(params.map((p) => [p.name, p.schema])), [JQ_ARGUMENT]: JQ_INPUT },
          ...(required.length > 0 ? { required } : {}),
          additionalProperties: false,
        },
        outputSchema: outputSchema(verb),
        annotations: {
          title,
          readOnlyHint: changes === 'none',
          destructiveHint: changes === 'destructive',
          idempotentHint: methods.every((e) => e.method === 'GET' || e.method === 'DELETE' || !!e.idempotent),
          openWorldHint: !!spec.openWorld,
        },
      };
      return { name, path, changes, asks: asksOf(verb), verb, spec, params, listing };
    });
}

/** The tools a server offers: reads alone with --read-only; destructive ones only with --allow-destructive. */
export function offered<T extends { changes: Changes }>(tools: T[], flags: { readOnly?: boolean; allowDestructive?: boolean }): T[] {
  return tools.filter((t) => (flags.readOnly ? t.changes === 'none' : t.changes !== 'destructive' || !!flags.allowDestructive));
}
