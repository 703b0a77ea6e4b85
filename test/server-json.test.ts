// The package's entry for the MCP registry (cli.md section 8): server.json is what `npm run docs`
// generates, valid against the registry's 2025-12-11 schema, names the npm package and version it
// ships in, and starts a working server when a client runs it as the entry says.
//
// The schema is vendored (CI reaches only the npm registry): test/fixtures/server.schema.2025-12-11.json
// is the registry's copy of https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json,
// github.com/modelcontextprotocol/registry, internal/validators/schemas/2025-12-11.json at commit
// e361b5ff5a925b36a38eda0544bca8230a84558b.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { NOT_FOR_THE_SERVER, SERVER_VARIABLE_NAMES } from '../src/help/server-json.js';
import { SETTINGS } from '../src/help/topics.js';
import { generatedFiles } from '../src/main.js';
import { BIN, ROOT, tempDir } from './helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const SCHEMA_FILE = join(ROOT, 'test', 'fixtures', 'server.schema.2025-12-11.json');

interface Variable {
  name: string;
  format: string;
  isSecret: boolean;
}
interface Entry {
  $schema: string;
  name: string;
  version: string;
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    packageArguments: { type: string; value: string }[];
    environmentVariables: Variable[];
  }[];
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const entry = JSON.parse(read('server.json')) as Entry;
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; mcpName: string; files: string[] };

function validator() {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('server.json', () => {
  it('is what npm run docs generates from package.json and the settings table', async () => {
    const files = await generatedFiles(undefined, read('package.json'), read('CHANGELOG.md'));
    expect(files['server.json']).toBe(read('server.json'));
  });

  it("is valid against the registry's 2025-12-11 schema, which rejects what the registry would", () => {
    const valid = validator();
    expect(entry.$schema).toBe(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')).$id);
    expect(valid(entry), JSON.stringify(valid.errors)).toBe(true);
    // The vendored schema has teeth: the mistakes an entry could make are refused.
    const broken = (change: (copy: Entry & { description?: string }) => void) => {
      const copy = structuredClone(entry);
      change(copy);
      return valid(copy);
    };
    expect(broken((e) => (e.name = 'wsctl'))).toBe(false);
    expect(broken((e) => (e.description = 'x'.repeat(101)))).toBe(false);
    expect(broken((e) => (e.packages[0]!.version = 'latest'))).toBe(false);
    expect(broken((e) => (e.packages[0]!.transport = {} as { type: string }))).toBe(false);
    expect(broken((e) => (e.packages[0]!.packageArguments = [{ type: 'positional' } as { type: string; value: string }]))).toBe(false);
  });

  it('names the npm package, its version and mcpName, and ships in the package', () => {
    expect(pkg.mcpName).toMatch(/^io\.github\.[^/]+\/wsctl$/);
    expect(entry.name).toBe(pkg.mcpName);
    expect(entry.version).toBe(pkg.version);
    expect(entry.packages).toHaveLength(1);
    const [npm] = entry.packages;
    expect(npm).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    expect(npm!.packageArguments).toEqual([{ type: 'positional', value: 'mcp' }]);
    expect(pkg.files).toContain('server.json');
  });

  it('marks the keys, and only them, secret; every variable is one wsctl documents, and each of its own is said or left out on purpose', () => {
    const variables = entry.packages[0]!.environmentVariables;
    expect(variables.filter((v) => v.isSecret).map((v) => v.name)).toEqual(['WSCTL_API_KEY', 'WSCTL_BYOK_API_KEY']);
    const documented = SETTINGS.flatMap((s) => s.env ?? []).map((e) => e.split('=')[0] as string);
    for (const name of documented.filter((e) => e.startsWith('WSCTL_'))) {
      expect(SERVER_VARIABLE_NAMES.includes(name) !== name in NOT_FOR_THE_SERVER, name).toBe(true);
    }
    const environment = read('man/wsctl.1').split('.SH ENVIRONMENT')[1]!.split('.SH ')[0]!;
    for (const v of variables) expect(environment, v.name).toContain(v.name);
  });

  it('started as the entry says, with its variables set, the built wsctl serves MCP with them', { timeout: 30_000 }, async () => {
    const npm = entry.packages[0]!;
    const values: Record<string, string> = {
      WSCTL_SANDBOX: 'true',
      WSCTL_DEBUG: 'true',
      WSCTL_TIMEOUT: '5',
      WSCTL_CONFIG_DIR: tempDir(),
      WSCTL_PROFILE: 'registry',
    };
    const child = spawn(process.execPath, [BIN, ...npm.packageArguments.map((a) => a.value)], {
      env: { PATH: process.env.PATH, HOME: tempDir(), ...values },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const answers: { id: number; result: { isError?: boolean; structuredContent?: unknown } }[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => answers.push(JSON.parse(line)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    try {
      send({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'registry', version: '1' } },
      });
      send({ method: 'notifications/initialized' });
      send({ id: 1, method: 'tools/call', params: { name: 'keys_list', arguments: {} } });
      for (let waited = 0; !answers.some((a) => a.id === 1); waited += 20) {
        if (waited > 20_000) throw new Error(`no answer; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(answers.find((a) => a.id === 1)!.result.isError).toBeFalsy();
      // WSCTL_SANDBOX and WSCTL_DEBUG were read: the sandbox answered, and the exchange was traced.
      expect(stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api-keys/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
