// A client nobody here wrote: the MCP Inspector's command-line mode lists the tools of the built
// wsctl mcp and calls keys_list and caps against the embedded sandbox, and its --strict schema check
// finds nothing to warn about in any tool (cli.md §8: portable schemas). The Inspector 2.x needs
// Node >= 22.19; it is installed from the npm registry into a cache folder on first use (its
// dependencies, vite 8 and react among them, have no place in wsctl's own tree).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTools } from './harness.js';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers.js';
import { offered } from '../../src/mcp/tools.js';

/** What a server offers by default, from the declarations. */
const DEFAULT = offered(await loadTools(), {}).map((t) => t.name);

const VERSION = '2.12.0';
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const supported = major > 22 || (major === 22 && minor >= 19);
const reason = `the MCP Inspector ${VERSION} needs Node >= 22.19, this is ${process.version}`;
if (!supported) console.log(`test/mcp/inspector.test.ts skipped: ${reason}`);

function inspector(): string {
  const prefix = join(tmpdir(), `wsctl-mcp-inspector-${VERSION}`);
  const bin = join(prefix, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `@modelcontextprotocol/inspector@${VERSION}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 240_000 },
    );
  }
  return bin;
}

/** One finding of the Inspector's schema lint, as --strict --format json reports it. */
interface Finding {
  rule: string;
  severity: 'error' | 'warning';
  schema: 'inputSchema' | 'outputSchema';
  path: string;
}

/** The Inspector's CLI mode against the built `wsctl mcp --sandbox` with these server options: its exit status, stdout and stderr. */
function inspect(inspectorArgs: string[], serverArgs: string[] = []) {
  const r = spawnSync(
    process.execPath,
    [
      inspector(),
      '--cli',
      '-e',
      `WSCTL_CONFIG_DIR=${tempDir()}`,
      ...inspectorArgs,
      process.execPath,
      BIN,
      'mcp',
      '--sandbox',
      ...serverArgs,
    ],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: tempDir() },
      timeout: 60_000,
    },
  );
  expect(r.status, r.stderr + r.stdout).toBe(0);
  return r;
}

describe.skipIf(!supported)(`the MCP Inspector's CLI mode (${supported ? `Node ${process.version}` : `skipped: ${reason}`})`, () => {
  it('lists the tools and calls keys_list and caps against the sandbox', { timeout: 300_000 }, () => {
    const result = (...method: string[]) => JSON.parse(inspect(method).stdout);
    const list = result('--method', 'tools/list');
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(DEFAULT);
    const keys = result('--method', 'tools/call', '--tool-name', 'keys_list');
    expect(keys.isError).toBeFalsy();
    expect(keys.structuredContent.keys.length).toBeGreaterThan(0);
    const caps = result('--method', 'tools/call', '--tool-name', 'caps');
    expect(caps.structuredContent.connected_apps.map((a: { app_slug: string }) => a.app_slug)).toContain('gmail');
  });

  // --strict reports every schema portability finding (a list of types, an empty schema, a remote $ref)
  // with its path; a warning alone leaves the exit status 0, so the findings themselves are asserted.
  it("--strict finds no schema portability warning in any tool's input or output schema", { timeout: 300_000 }, () => {
    for (const serverArgs of [[], ['--allow-destructive']]) {
      const r = inspect(['--method', 'tools/list', '--strict', '--format', 'json'], serverArgs);
      const envelope = JSON.parse(r.stdout);
      const tools = envelope.result.tools as { name: string; outputSchema?: unknown }[];
      if (serverArgs.length) expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['conn_rm', 'device_rm', 'pub_rm']));
      for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
      const findings = ((envelope.schemaFindings ?? []) as { toolName: string; findings: Finding[] }[]).flatMap((t) =>
        t.findings.map((f) => `${t.toolName} ${f.schema}.${f.path}: ${f.severity} ${f.rule}`),
      );
      expect(findings, `wsctl mcp --sandbox ${serverArgs.join(' ')}`).toEqual([]);
      expect(r.stderr).not.toMatch(/Warning:|Error:|Schema portability/);
    }
  });
});
