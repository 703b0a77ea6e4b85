// `wsctl help --json` (cli.md §12) as programs and agents meet it: through the built bin/wsctl, the
// whole tree and one command (by `help --json <words>` and by `<words> --help --json`), an unknown
// command as a JSON error document with the corrected line; and compared with what the same
// declarations make elsewhere: commander's parsed tree (every option it accepts, with its type and
// choices, and nothing more), the completions' options that take a value, the MCP tools (their
// names, and the output schema each declares beside the jq shape, as `wsctl mcp` lists it), and the
// real --json documents of the commands against the sandbox, each valid under its JSON Schema 2020-12.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandDocument } from '../src/cli/help-json.js';
import { declaredVerbs } from '../src/cli/program.js';
import { commandTree as completionTree } from '../src/completion/tree.js';
import { REASONS } from '../src/errors.js';
import { timeoutMs } from '../src/config/resolve.js';
import { TOPICS } from '../src/help/topics.js';
import { toolsOf } from '../src/mcp/tools.js';
import { commandChanges } from '../src/verbs/changes.js';
import { commandSummary } from '../src/verbs/confirm.js';
import type { Param } from '../src/verbs/declare.js';
import { argvOf } from './endpoints.js';
import { BIN, ROOT, run, runBin, startSandbox, tempDir } from './helpers.js';
import { commandTree } from './mcp/harness.js';

const VERSION = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).version as string;
const VERBS = (await declaredVerbs()).filter((v) => !v.hidden);
const TOOLS = toolsOf(VERBS);

/** Every command's description, in this process (the same main() as bin/wsctl runs); one that is no JSON document is missing, and its tests fail. */
const described = new Map<string, CommandDocument>();
for (const v of VERBS) {
  const r = await run(['help', '--json', ...v.path]);
  try {
    if (r.code === 0) described.set(v.path.join(' '), JSON.parse(r.stdout));
  } catch {
    // not described: the tests that read it say so
  }
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('wsctl help --json (built bin/wsctl)', () => {
  it('describes the whole tree: commands with what they change, the help topics, the error reasons', async () => {
    const r = await runBin(['help', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['wsctl', 'commands', 'topics', 'reasons']);
    expect(doc.wsctl).toBe(VERSION);
    expect(doc.commands).toEqual(
      VERBS.map((v) => ({ name: v.path.join(' '), summary: commandSummary(v.verb), changes: commandChanges(v.verb) })),
    );
    expect(doc.commands).toContainEqual({ name: 'keys create', summary: expect.any(String), changes: 'write' });
    expect(doc.commands).toContainEqual({ name: 'device rm', summary: expect.any(String), changes: 'destructive' });
    expect(doc.commands).toContainEqual({ name: 'auth token', summary: expect.any(String), changes: 'none' });
    expect(doc.topics).toEqual(TOPICS.map((t) => t.name));
    expect(doc.reasons).toEqual(Object.keys(REASONS));
    // --jq filters it, as every --json document.
    const names = await runBin(['help', '--jq', '.commands[].name']);
    expect(names.stdout.split('\n').filter(Boolean)).toEqual(doc.commands.map((c: { name: string }) => c.name));
  });

  it('`help --json keys create` and `keys create --help --json` describe one command alike', async () => {
    const [byHelp, byFlag] = await Promise.all([
      runBin(['help', '--json', 'keys', 'create']),
      runBin(['keys', 'create', '--help', '--json']),
    ]);
    expect([byHelp.code, byHelp.stderr, byFlag.code, byFlag.stderr]).toEqual([0, '', 0, '']);
    expect(byFlag.stdout).toBe(byHelp.stdout);
    const doc = JSON.parse(byHelp.stdout) as CommandDocument;
    expect(doc).toMatchObject({
      name: 'keys create',
      usage: 'wsctl keys create [options] <name>',
      changes: 'write',
      arguments: [{ name: 'name', required: true, description: 'a label for the key' }],
      confirms: { asks: true },
      // --force replaces what exists: a no-destructive profile refuses that call.
      refused_by: ['no-destructive', 'read-only'],
      mcp_tool: 'keys_create',
    });
    expect(doc.options).toContainEqual(expect.objectContaining({ flag: '--save-as', type: 'string', required: false }));
    expect(doc.options).toContainEqual(expect.objectContaining({ flag: '--force', type: 'boolean' }));
    expect(doc.options).toContainEqual(expect.objectContaining({ flag: '--profile', type: 'string', env: 'WSCTL_PROFILE' }));
    expect(doc.options).toContainEqual(expect.objectContaining({ flag: '--timeout', type: 'number', env: 'WSCTL_TIMEOUT', default: 30 }));
    expect(timeoutMs({}, {})).toBe(30_000);
    // A default the verb applies itself is said too.
    expect(described.get('convo show')!.options).toContainEqual(
      expect.objectContaining({ flag: '--interval', type: 'number', default: 2 }),
    );
    expect(doc.exit_codes.map((e) => e.code)).toEqual([0, 1, 2, 3, 4, 5, 130]);
    expect(doc.exit_codes.find((e) => e.code === 4)?.reasons).toEqual(
      expect.arrayContaining(['not_logged_in', 'auth_rejected', 'policy_refused']),
    );
    expect(doc.output_schema?.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('an unknown command is exit 2 with a JSON error document: reason usage, the suggestion, the corrected line as next', async () => {
    for (const [argv, corrected] of [
      [['help', '--json', 'keys', 'craete'], 'wsctl help --json keys create'],
      [['keys', 'craete', '--help', '--json'], 'wsctl keys create --help --json'],
      [['help', '--json', 'kyes'], 'wsctl help --json keys'],
    ] as const) {
      const r = await runBin([...argv]);
      expect([r.code, r.stdout], argv.join(' ')).toEqual([2, '']);
      const { error } = JSON.parse(r.stderr);
      expect(error).toMatchObject({ exit_code: 2, reason: 'usage' });
      expect(error.message).toMatch(/^unknown command .*Did you mean '(create|keys)'\?/);
      expect(error.next?.[0]?.command).toBe(corrected);
    }
  });
});

describe('help --json agrees with what the same declarations make', () => {
  it("lists every option commander's parsed tree accepts, with its type and choices, and nothing more; and its arguments", async () => {
    const program = await commandTree();
    const at = (path: string[]) => path.reduce((c: Command, w) => c.commands.find((s) => s.name() === w) as Command, program);
    for (const v of VERBS) {
      const name = v.path.join(' ');
      const doc = described.get(name)!;
      const command = at(v.path);
      // What commander accepts on this command: its own options, its ancestors' (the global ones), and help.
      const accepted = new Map<string, import('commander').Option>();
      for (let c: Command | null = command; c; c = c.parent)
        for (const o of c.options) if (!accepted.has(o.long!)) accepted.set(o.long!, o);
      const listed = doc.options.map((o) => o.flag);
      expect(new Set(listed).size, `${name}: an option listed twice`).toBe(listed.length);
      expect([...listed].sort(), name).toEqual([...accepted.keys(), '--help'].sort());
      for (const o of doc.options) {
        const parsed = accepted.get(o.flag);
        if (!parsed) continue; // --help: commander's own, on every command
        const valued = parsed.required || parsed.optional;
        expect(o.type === 'boolean', `${name} ${o.flag}`).toBe(!valued);
        expect(o.type === 'choice' ? o.choices : undefined, `${name} ${o.flag}`).toEqual(parsed.argChoices);
        expect(o.short, `${name} ${o.flag}`).toBe(parsed.short);
        // A global option's default comes after its variable, so commander has none: the resolver applies it;
        // so does a verb whose flag's absence it decides itself (`--interval`), which its declaration says.
        const implied = (Object.values(v.verb.flags ?? {}) as Param<unknown>[]).find((f) => f.syntax.includes(o.flag))?.implied;
        if (o.default !== undefined && !o.global) expect(o.default, `${name} ${o.flag}`).toEqual(implied ?? parsed.defaultValue);
      }
      expect(
        doc.arguments.map((a) => [a.name, a.choices]),
        name,
      ).toEqual(command.registeredArguments.map((a) => [a.name(), a.argChoices]));
      expect(doc.usage, name).toBe(`wsctl ${name} ${command.usage()}`);
      expect(doc.summary, name).toBe(command.description());
    }
  });

  it('lists as taking a value exactly the options the completions offer values for', async () => {
    const program = await commandTree();
    const tree = completionTree(program);
    const globals = tree.globals.filter((o) => o.value).flatMap((o) => o.flags);
    for (const v of VERBS) {
      const name = v.path.join(' ');
      const node = tree.nodes.find((n) => n.path === `wsctl ${name}`)!;
      const completed = [...node.options.filter((o) => o.value).flatMap((o) => o.flags), ...globals];
      const valued = described
        .get(name)!
        // A noun's option that commander also reads after its verb is not offered there: it means nothing to the verb.
        .options.filter((o) => o.type !== 'boolean' && o.noun === undefined)
        .flatMap((o) => [o.short, o.flag].filter(Boolean));
      expect(new Set(valued), name).toEqual(new Set(completed));
      // Choices are offered as completions' words.
      for (const o of described.get(name)!.options.filter((o) => o.type === 'choice')) {
        const spec = [...node.options, ...tree.globals].find((c) => c.flags.includes(o.flag));
        expect(spec?.value, `${name} ${o.flag}`).toEqual({ kind: 'choices', values: o.choices });
      }
    }
  });

  it('names the MCP tool of every command that has one, and no other', () => {
    const named = VERBS.flatMap((v) => {
      const tool = described.get(v.path.join(' '))!.mcp_tool;
      return tool ? [[tool, v.path.join(' ')]] : [];
    });
    expect(named).toEqual(TOOLS.map((t) => [t.name, t.path.join(' ')]));
    for (const v of VERBS) {
      const doc = described.get(v.path.join(' '))!;
      expect(doc.output_schema !== undefined, v.path.join(' ')).toBe(doc.mcp_tool !== undefined);
    }
  });

  it('gives each output schema in JSON Schema 2020-12, the very schema its tool declares beside the jq shape in `wsctl mcp`', async () => {
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--sandbox', '--allow-destructive'],
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), WSCTL_CONFIG_DIR: tempDir() },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'help-json-test', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const tool of tools) {
      const [name, doc] = [...described].find(([, d]) => d.mcp_tool === tool.name)!;
      const { $schema, $defs, ...document } = doc.output_schema!;
      expect($schema, name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(ajv.validateSchema(doc.output_schema!), `${name}: ${ajv.errorsText()}`).toBe(true);
      ajv.compile(doc.output_schema!);
      // The tool's root keeps `type: "object"`; the document is one branch of its anyOf, the jq shape another.
      const declared = tool.outputSchema as { type: string; anyOf: Record<string, unknown>[]; $defs?: unknown };
      expect(declared.type, tool.name).toBe('object');
      expect(declared.anyOf, tool.name).toContainEqual(document);
      expect(declared.anyOf, tool.name).toContainEqual(expect.objectContaining({ required: ['jq'] }));
      expect(declared.$defs, tool.name).toEqual($defs);
    }
  });

  it("validates the real --json documents of the tools' commands against the sandbox", { timeout: 120_000 }, async () => {
    const sandbox = await startSandbox();
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    for (const tool of TOOLS) {
      const doc = [...described.values()].find((d) => d.mcp_tool === tool.name)!;
      const argv = [...argvOf(tool.verb.sample), '--json'];
      const r = await runBin(argv, { env: { ...sandbox.env, WSCTL_BYOK_API_KEY: 'sk-provider-test-key-0001' } });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      const validate = ajv.compile(doc.output_schema!);
      expect(validate(JSON.parse(r.stdout)), `${argv.join(' ')}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});

describe('what each command may end with, changes and is refused', () => {
  it('derives exit codes, confirmations and refusals from the declarations', () => {
    const doc = (name: string) => described.get(name)!;
    const codes = (name: string) => doc(name).exit_codes.map((e) => e.code);
    // A deletion asks, answered by --yes; every agent policy but full refuses it.
    expect(doc('device rm')).toMatchObject({
      changes: 'destructive',
      confirms: { asks: true, yes: '--yes' },
      refused_by: ['no-destructive', 'read-only'],
    });
    expect(doc('device rm').exit_codes.find((e) => e.code === 2)?.reasons).toEqual(
      expect.arrayContaining(['confirmation_required', 'declined']),
    );
    // A read asks nothing and no policy refuses it.
    expect(doc('keys list')).toMatchObject({ changes: 'none', confirms: { asks: false }, refused_by: [] });
    expect(doc('keys list').exit_codes.flatMap((e) => e.reasons)).not.toContain('policy_refused');
    // A local command that shows a key: nothing changes, yet the policies refuse it (cli.md §11).
    expect(doc('auth token')).toMatchObject({ changes: 'none', refused_by: ['no-destructive', 'read-only'] });
    expect(doc('auth token').mcp_tool).toBeUndefined();
    expect(codes('auth token')).toEqual([0, 1, 2, 4, 130]);
    expect(doc('auth logout').refused_by).toEqual(['no-destructive', 'read-only']);
    expect(doc('profile rm').refused_by).toEqual(['no-destructive', 'read-only']);
    // A local command that calls nothing: no network, no 404.
    expect(codes('completion')).toEqual([0, 1, 2, 130]);
    expect(doc('completion').arguments).toEqual([
      { name: 'shell', required: true, description: 'the shell', choices: ['bash', 'zsh', 'fish'] },
    ]);
    // An argument that takes a remembered id says which kind (cli.md §10).
    expect(doc('convo show').arguments[0]).toMatchObject({ name: 'conversation_id', ids: 'conversation' });
    expect(doc('convo show').options).toContainEqual(expect.objectContaining({ flag: '--tail', type: 'number' }));
    expect(doc('sandbox serve').options).toContainEqual(expect.objectContaining({ flag: '--host', type: 'string', default: '127.0.0.1' }));
  });
});
