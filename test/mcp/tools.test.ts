// The tools are the command tree: every command that calls the service is a tool (those that are not
// say why in their declaration), in the order of `wsctl --help`, taking its command's arguments and
// flags in snake case; and every schema is one the MCP Inspector's --strict check reads without a
// warning (no list of types, no empty schema).
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { isTool, snake, toolsOf } from '../../src/mcp/tools.js';
import { describedOf } from '../../src/common/visible.js';
import { declaredVerbs } from '../../src/cli/program.js';
import { commandTree, loadTools } from './harness.js';

const TOOLS = await loadTools();

function find(root: Command, path: string[]): Command {
  let command = root;
  for (const word of path) command = command.commands.find((c) => c.name() === word) as Command;
  return command;
}

/** Every place in a JSON Schema where a client would find a portability problem, by its path. */
function problems(schema: unknown, at = '$'): string[] {
  if (
    schema === true ||
    (schema && typeof schema === 'object' && !Array.isArray(schema) && Object.keys(schema).filter((k) => k !== 'description').length === 0)
  )
    return [`${at}: empty schema`];
  if (!schema || typeof schema !== 'object') return schema === false && at.endsWith('.additionalProperties') ? [] : [`${at}: not a schema`];
  const s = schema as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(s.type)) found.push(`${at}: a list of types`);
  if ('additionalProperties' in s) found.push(...problems(s.additionalProperties, `${at}.additionalProperties`));
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
    found.push(...problems(sub, `${at}.properties.${name}`));
  if (s.items !== undefined) found.push(...problems(s.items, `${at}.items`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const [i, sub] of ((s[key] as unknown[] | undefined) ?? []).entries()) found.push(...problems(sub, `${at}.${key}[${i}]`));
  for (const [name, sub] of Object.entries((s.definitions ?? s.$defs ?? {}) as Record<string, unknown>))
    found.push(...problems(sub, `${at}.definitions.${name}`));
  return found;
}

describe('tools and the command tree', () => {
  it('every command that calls the service is a tool named <noun>_<verb>, in the order of wsctl --help', async () => {
    const verbs = (await declaredVerbs()).filter((v) => !v.hidden);
    const callers = verbs.filter((v) => Array.isArray(v.verb.endpoints) && v.verb.endpoints.length > 0);
    // A command that calls the service and is no tool says why in its declaration.
    for (const v of callers.filter((v) => !isTool(v.verb)))
      expect((v.verb.mcp as { none?: string }).none, v.path.join(' ')).toMatch(/\w{10}/);
    expect(TOOLS.map((t) => t.path.join(' '))).toEqual(callers.filter((v) => isTool(v.verb)).map((v) => v.path.join(' ')));
    for (const tool of TOOLS) expect(tool.name).toBe(tool.path.map(snake).join('_'));
    // The nouns' order is the root's help order.
    const tree = await commandTree();
    const helpOrder = tree.commands.map((c) => c.name());
    const nounIndex = TOOLS.map((t) => helpOrder.indexOf(t.path[0]!));
    expect(nounIndex).toEqual([...nounIndex].sort((a, b) => a - b));
    expect(TOOLS.length).toBeGreaterThan(0);
  });

  it("each tool's parameters are its command's arguments and options in snake case, less the dropped ones, plus its extra ones", async () => {
    const tree = await commandTree();
    for (const tool of TOOLS) {
      const command = find(tree, tool.path);
      const longOf = (syntax: string) => snake((syntax.match(/--[\w-]+/g) ?? ['']).pop()!);
      const dropped = (tool.spec.drop ?? []).map((key) => longOf((tool.verb.flags as Record<string, { syntax: string }>)[key]!.syntax));
      // A deletion's --yes is the command line's answer to [y/N]: a tool's person answers through the client.
      const cli = [...command.registeredArguments.map((a) => snake(a.name())), ...command.options.map((o) => snake(o.long ?? ''))].filter(
        (o) => !(o === 'yes' && tool.changes === 'destructive'),
      );
      const extra = Object.values(tool.spec.extra ?? {}).map((p) => longOf(p.syntax));
      // Besides its command's, every tool takes jq, a filter of the document the door runs (cli.md §8).
      expect(tool.listing.inputSchema.properties.jq, tool.name).toMatchObject({ type: 'string' });
      const params = Object.keys(tool.listing.inputSchema.properties).filter((p) => p !== 'jq');
      for (const d of tool.spec.drop ?? []) expect(Object.keys(tool.verb.flags ?? {}), `${tool.name} drops ${d}`).toContain(d);
      expect(params.filter((p) => !extra.includes(p)).sort(), tool.name).toEqual(cli.filter((o) => !dropped.includes(o)).sort());
      for (const p of extra) expect(cli, tool.name).not.toContain(p);
      // Required arguments are required parameters.
      const required = tool.listing.inputSchema.required ?? [];
      // An id argument that a terminal chooses from a list when left out (cli.md §10) is required of a tool.
      const chosen = describedOf(command)?.ids?.args ?? [];
      for (const [i, a] of command.registeredArguments.entries()) {
        if (a.required || chosen[i]) expect(required, `${tool.name} ${a.name()}`).toContain(snake(a.name()));
        else expect(required, `${tool.name} ${a.name()}`).not.toContain(snake(a.name()));
      }
      // Flags are booleans, choices enums.
      for (const option of command.options.filter((o) => params.includes(snake(o.long ?? '')))) {
        const schema = tool.listing.inputSchema.properties[snake(option.long ?? '')]!;
        if (option.required || option.optional)
          expect(schema.type === 'string' || schema.type === 'integer' || schema.type === 'array', `${tool.name} ${option.long}`).toBe(
            true,
          );
        else expect(schema.type, `${tool.name} ${option.long}`).toBe('boolean');
        if (option.argChoices) expect(schema.enum).toEqual(option.argChoices);
      }
    }
  });

  it('every input and output schema is portable: no list of types, no empty schema, objects open to fields they do not name', () => {
    for (const tool of TOOLS) {
      expect(problems(tool.listing.inputSchema), `${tool.name} input`).toEqual([]);
      expect(problems(tool.listing.outputSchema), `${tool.name} output`).toEqual([]);
      expect(tool.listing.outputSchema.additionalProperties, tool.name).toBeUndefined();
    }
    // The walker finds what it looks for.
    expect(problems({ type: 'object', properties: { a: { type: ['string', 'null'] }, b: {} }, additionalProperties: {} })).toEqual([
      '$.additionalProperties: empty schema',
      '$.properties.a: a list of types',
      '$.properties.b: empty schema',
    ]);
  });

  it('a verb declared tomorrow is a tool without a second definition', async () => {
    const verbs = await declaredVerbs();
    const keysList = verbs.find((v) => v.path.join(' ') === 'keys list')!;
    const added = { ...keysList, path: ['keys', 'rotate'], verb: { ...keysList.verb, name: 'rotate', summary: 'Rotate a key' } };
    const tools = toolsOf([...verbs, added]);
    expect(tools.map((t) => t.name)).toContain('keys_rotate');
    expect(tools.find((t) => t.name === 'keys_rotate')!.listing.annotations.readOnlyHint).toBe(true);
  });
});
