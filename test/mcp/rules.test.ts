// Every rule that makes a command exit 2 refuses its tool's call the same way (cli.md §8): for every
// tool, calls made from its declaration (each required parameter left out, each text parameter
// given empty, blank or odd values, each flag alone) are run on the command line and as the tool
// against the same sandbox; where the command exits 2 the tool returns isError with exit code 2 and
// the command's message in the tool's names, and the other way round.
import { describe, expect, it } from 'vitest';
import { run, startSandbox, type TestSandbox } from '../helpers.js';
import type { ToolDef, ToolParam } from '../../src/mcp/tools.js';
import { connect, texts, loadTools } from './harness.js';

const TOOLS = await loadTools();
const ODD = ['', ' ', 'a/../b', 'ftp://x', '-1', 'nope'];
const PROVIDER_KEY = 'sk-provider-0123456789';

const longOf = (p: ToolParam) => (p.param.syntax.match(/--[\w-]+/g) ?? []).pop() as string;

/** The values of a tool's sample argv, by the tool's parameter names. */
function sampleArgs(tool: ToolDef): Record<string, unknown> {
  const words = tool.verb.sample.slice(tool.path.length);
  const args: Record<string, unknown> = {};
  const positional = tool.params.filter((p) => p.kind === 'arg');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const flag = tool.params.find((p) => p.kind === 'flag' && p.param.syntax.split(/[ ,]+/).includes(word));
    if (flag) args[flag.name] = flag.schema.type === 'boolean' ? true : words[++i];
    else if (!word.startsWith('-')) args[positional.shift()!.name] = word.replace(/^test\/fixtures\//, 'test/fixtures/');
  }
  return args;
}

/** The argv the command line would be given for these arguments (values after '=' and positionals after '--', so none reads as a flag). */
function argvOf(tool: ToolDef, args: Record<string, unknown>): string[] {
  const flags: string[] = [];
  const positional: string[] = [];
  for (const p of tool.params) {
    const value = args[p.name];
    if (value === undefined || (tool.spec.extra && p.key in tool.spec.extra)) continue;
    if (p.kind === 'arg') positional.push(String(value));
    else if (value === true) flags.push(longOf(p));
    else if (value !== false) flags.push(`${longOf(p)}=${value}`);
  }
  const yes = tool.changes === 'destructive' ? ['--yes'] : [];
  return [...tool.path, ...flags, ...yes, '--', ...positional];
}

/** The command line's message in the tool's names: each flag (with its syntax) and argument by the tool's name, no usage hint. */
function inToolNames(tool: ToolDef, message: string): string {
  let said = message.replace(/ Run `[^`]*--help` for usage\.$/, '').replace(/\n/g, ' ');
  for (const p of tool.params) {
    if (p.kind === 'flag')
      said = said
        .split(p.param.syntax.replace(/^-\w, /, ''))
        .join(p.name)
        .split(longOf(p))
        .join(p.name);
  }
  return said;
}

function cases(tool: ToolDef): Record<string, unknown>[] {
  const base = sampleArgs(tool);
  const out: Record<string, unknown>[] = [];
  for (const p of tool.params) {
    if (p.key === tool.spec.localFile) continue; // the file's own checks name its real path: test/mcp/confirm.test.ts
    if (tool.spec.extra && p.key in tool.spec.extra) continue; // the command reads it another way (byok's key: stdin, a variable)
    const { [p.name]: _left, ...without } = base;
    // On the command line only the last positional can be left out (the others would shift).
    const last = p.kind === 'arg' && tool.params.filter((q) => q.kind === 'arg').at(-1) === p;
    if (tool.listing.inputSchema.required?.includes(p.name) && (p.kind === 'flag' || last)) out.push(without);
    if (p.schema.type === 'boolean') out.push({ ...base, [p.name]: true });
    else if (p.schema.type === 'string') for (const v of ODD) out.push({ ...base, [p.name]: v });
  }
  return out;
}

describe('the rules of a command hold for its tool, in its names', () => {
  it('every call the command line refuses with exit 2 the tool refuses the same way, and no other', { timeout: 240_000 }, async () => {
    let compared = 0;
    let refused = 0;
    for (const tool of TOOLS) {
      for (const args of cases(tool)) {
        // Each door against a sandbox of its own, seeded alike.
        const [one, other]: TestSandbox[] = await Promise.all([startSandbox(), startSandbox()]);
        const cli = await run(['--json', ...argvOf(tool, args)], { env: { ...one!.env, WSCTL_BYOK_API_KEY: PROVIDER_KEY } });
        // byok_add's key from the server's environment, as the command line's.
        const c = await connect({ allowDestructive: true, noConfirm: true }, { ...other!.env, WSCTL_BYOK_API_KEY: PROVIDER_KEY });
        const result = await c.client.callTool({ name: tool.name, arguments: args });
        await c.close();
        const what = `${tool.name} ${JSON.stringify(args)}: ${cli.stderr}`;
        const toolCode = result.isError ? Number(/\(exit code (\d+)\)$/.exec(texts(result)[0]!)?.[1]) : 0;
        compared++;
        if (cli.code !== 2 && toolCode !== 2) continue;
        refused++;
        expect(toolCode, what).toBe(2);
        expect(cli.code, what).toBe(2);
        const message = JSON.parse(cli.stderr).error.message as string;
        expect(texts(result)[0], what).toBe(`Error: ${inToolNames(tool, message)} (exit code 2)`);
      }
    }
    expect(refused).toBeGreaterThan(TOOLS.length);
    expect(compared).toBeGreaterThan(refused);
  });
});
