// The tools cannot drift from the command tree: every command that calls the service is a tool
// (those that are not say why), and each tool takes its command's arguments and options.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { snake } from '../../src/commands/mcp/index.js';
import { jsonSchema } from '../../src/mcp/mcp-server.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { describedOf } from '../../src/visible.js';
import { commandTree } from './harness.js';

/** Commands that are not tools, and why. */
const NOT_TOOLS: Record<string, string> = {
  auth: 'credentials: an agent neither logs in nor reads keys',
  profile: 'local configuration, no request',
  api: 'any request at all: it would bypass the annotations and offering rules',
  completion: 'no request',
  sandbox: 'runs a local server, no request',
  mcp: 'this server',
  __complete: 'no request',
  ids: 'local state (the ids wsctl remembers), no request',
};

/**
 * Every command that runs something: the leaves, and the commands with subcommands that have an
 * action of their own (`mcp`), found by parsing their words and hearing whether an action ran.
 */
async function runnable(): Promise<string[][]> {
  let ran: Command | undefined;
  const tree = await commandTree((command) => (ran = command));
  const paths: string[][] = [];
  const walk = async (command: Command, path: string[]): Promise<void> => {
    if (path.length > 0 && command.commands.length === 0) paths.push(path);
    else if (path.length > 0) {
      ran = undefined;
      await tree.parseAsync(path, { from: 'user' }).catch(() => {});
      if (ran === command) paths.push(path);
    }
    for (const c of command.commands) await walk(c, [...path, c.name()]);
  };
  await walk(tree, []);
  return paths;
}

function find(root: Command, path: string[]): Command {
  let command = root;
  for (const word of path) command = command.commands.find((c) => c.name() === word) as Command;
  return command;
}

describe('tools and the command tree', () => {
  it('every command that calls the service is a tool named <noun>_<verb>, and every tool is such a command', async () => {
    const all = await runnable();
    expect(all.map((p) => p.join(' '))).toContain('mcp');
    expect(all.map((p) => p.join(' '))).not.toContain('keys');
    const service = all.filter((path) => !Object.hasOwn(NOT_TOOLS, path[0]!));
    expect(service.map((p) => p.join(' ')).sort()).toEqual(TOOLS.map((t) => t.command.join(' ')).sort());
    for (const tool of TOOLS) expect(tool.name).toBe(tool.command.map(snake).join('_'));
    expect(TOOLS).toHaveLength(14);
  });

  it("each tool's parameters are its command's arguments and options, in snake case", async () => {
    const tree = await commandTree();
    for (const tool of TOOLS) {
      const command = find(tree, tool.command);
      const cli = [...command.registeredArguments.map((a) => snake(a.name())), ...command.options.map((o) => snake(o.attributeName()))];
      const params = Object.keys((jsonSchema(tool.input, 'input') as { properties: object }).properties);
      expect(params.filter((p) => !tool.toolOnly.includes(p)).sort(), tool.name).toEqual(cli.filter((o) => !tool.cliOnly.includes(o)).sort());
      for (const p of tool.toolOnly) expect(cli, tool.name).not.toContain(p);
      for (const o of tool.cliOnly) expect(cli, tool.name).toContain(o);
      // Required arguments are required parameters.
      const required = (jsonSchema(tool.input, 'input') as { required?: string[] }).required ?? [];
      // An id argument that a terminal chooses from a list when left out (cli.md §10) is required of a tool.
      const chosen = describedOf(command)?.ids?.args ?? [];
      for (const [i, a] of command.registeredArguments.entries()) {
        if (a.required || chosen[i]) expect(required, `${tool.name} ${a.name()}`).toContain(snake(a.name()));
        else expect(required, `${tool.name} ${a.name()}`).not.toContain(snake(a.name()));
      }
    }
  });
});
