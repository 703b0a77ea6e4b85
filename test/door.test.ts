// Each door (the command line, an MCP call) resolves the target once, before the pipeline runs, and
// the pipeline sends with the client it is handed: settle() never asks the context for one. Seen
// from outside: which server a request reaches, and when and how often the environment that names
// the target is read.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createCtx } from '../src/cli/context.js';
import { list as keysList } from '../src/commands/keys/list.js';
import { configFolder, ConfigStore } from '../src/config/index.js';
import { resolveTarget } from '../src/config/resolve.js';
import { main } from '../src/main.js';
import { createServer } from '../src/mcp/mcp-server.js';
import { toolsOf } from '../src/mcp/tools.js';
import { declaredVerbs } from '../src/cli/program.js';
import { needsOf } from '../src/verbs/declare.js';
import { commandLineDoor, invoke } from '../src/verbs/invoke.js';
import type { BaseCtx } from '../src/verbs/context.js';
import { run, silentDoor, startSandbox, tempDir } from './helpers.js';

type Env = Record<string, string | undefined>;

/** The environment as given, with each read of WSCTL_BASE_URL (what names the target) noted in `seen`. */
function watched(env: Env, seen: string[]): Env {
  return new Proxy(env, {
    get(target, name, receiver) {
      if (name === 'WSCTL_BASE_URL') seen.push('target read');
      return Reflect.get(target, name, receiver);
    },
  });
}

/** How many times one resolving of the target reads WSCTL_BASE_URL from this environment. */
function readsPerResolving(env: Env): number {
  const seen: string[] = [];
  const given = watched(env, seen);
  const folder = configFolder(env);
  const config = new ConfigStore(folder.path);
  resolveTarget({ flags: {}, env: given, folder, config: () => config.read(), pin: () => undefined });
  return seen.length;
}

function base(env: Env, prompt: BaseCtx['prompt'] = silentDoor().prompt, tty = false): BaseCtx {
  const io = {
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: 100,
  };
  return { io, env, signal: new AbortController().signal, version: '0.0.0-test', prompt, cwd: tempDir() };
}

describe('the door resolves the target; the pipeline sends with what it is handed', () => {
  it("settle() sends with the door's client, not with one for the context's own target", async () => {
    const handed = await startSandbox();
    const own = await startSandbox();
    const door = await createCtx(base({ HOME: tempDir(), ...handed.env }), {}, { target: true });
    const ctx = await createCtx(base({ HOME: tempDir(), ...own.env }), {}, { target: true });
    try {
      expect(ctx.reached?.target?.baseUrl).toBe(own.url);
      const result = await invoke(keysList, {}, { ...ctx, reached: door.reached }, commandLineDoor('wsctl keys list'), {
        path: ['keys', 'list'],
      });
      expect(result?.json).toHaveProperty('keys');
      expect(handed.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api-keys/']);
      expect(own.requests).toEqual([]);
    } finally {
      await ctx.close();
      await door.close();
    }
  });

  it.each(['--version', 'help', 'completion bash', 'profile list', 'alias list', 'mcp config', 'keys list'])(
    '`wsctl %s --sandbox`: only a verb that sends with the profile has its target resolved (the sandbox started)',
    async (line) => {
      const argv = line.split(' ');
      const dir = tempDir();
      const sends = argv[0] === 'keys';
      expect(await main([...argv, '--sandbox'], base({ WSCTL_CONFIG_DIR: dir, HOME: tempDir() }))).toBe(0);
      // Resolving the sandbox's target starts it, with its state in the config folder.
      expect(existsSync(join(dir, 'sandbox.json'))).toBe(sends);
    },
  );

  it('`auth login` sends with the key it is given: no target is resolved for it, so --sandbox is refused with nothing started', async () => {
    const dir = tempDir();
    expect(await main(['auth', 'login', '--with-key', '--sandbox'], base({ WSCTL_CONFIG_DIR: dir, HOME: tempDir() }))).toBe(2);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });

  it('what stops the target is said when it was before: after a wrong option, after the question, never under --dry-run', async () => {
    const env = { WSCTL_CONFIG_DIR: tempDir(), HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10' };
    expect(await run(['keys', 'create', '--profile', 'nope'], { env })).toMatchObject({
      code: 2,
      stderr: "Error: Missing required argument 'name'. Run `wsctl keys create --help` for usage.\n",
    });
    const missing =
      "Error: No profile 'nope'. There are no profiles yet. Create it with `wsctl auth login --profile nope --base-url <url>`.\n";
    expect(await run(['keys', 'list', '--profile', 'nope'], { env })).toMatchObject({ code: 4, stderr: missing });
    // A deletion asks first, naming what it would reach; the missing profile ends it once answered.
    const asked = await run(['device', 'rm', 'dev_1', '--profile', 'nope'], { env, tty: true, stdinTTY: true, answers: ['y'] });
    expect([asked.code, asked.prompts]).toEqual([4, ["Remove device 'dev_1' (profile 'nope' from --profile, no base URL)?"]]);
    expect(asked.stderr).toContain("Error: No profile 'nope'.");
    const planned = await run(['keys', 'list', '--dry-run', '--base-url', 'http://127.0.0.1:9'], { env });
    expect([planned.code, planned.stdout.split('\n')[0]]).toEqual([0, 'GET http://127.0.0.1:9/api-keys/']);
    expect(planned.stdout).not.toContain('authorization');
  });

  it("the declarations say what a door resolves: the profile's target for a verb that sends with its key", async () => {
    expect(needsOf(keysList)).toEqual({ target: true });
    expect(needsOf((await import('../src/commands/completion.js')).completion.self!)).toEqual({ target: false });
    // auth login sends with the key it is given, never the profile's (which it is about to make).
    expect(needsOf((await import('../src/commands/auth/login.js')).login)).toEqual({ target: false });
  });

  it('the command line resolves once, before the verb runs: a prompt of the verb comes after, and nothing resolves again', async () => {
    const sb = await startSandbox();
    const env: Env = { ...sb.env, HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10' };
    const seen: string[] = [];
    const prompt: BaseCtx['prompt'] = {
      secret: async () => {
        seen.push('prompt');
        return 'sk-provider-key';
      },
      confirm: async () => true,
    };
    const argv = ['byok', 'add', '--name', 'x', '--provider-url', 'https://api.openai.com/v1', '--format', 'openai', '--model', 'm'];
    const code = await main([...argv, '--json'], base(watched(env, seen), prompt, true));
    expect(code).toBe(0);
    expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /byok/']);
    const once = Array(readsPerResolving(env)).fill('target read');
    expect(once.length).toBeGreaterThan(0);
    expect(seen).toEqual([...once, 'prompt']);
  });

  it('an MCP call resolves once per call, before the pipeline: three calls, three resolvings, whatever each call asks', async () => {
    const sb = await startSandbox();
    const env: Env = { ...sb.env, HOME: tempDir(), WSCTL_RETRY_BASE_MS: '10' };
    const seen: string[] = [];
    const outer = await createCtx(base(watched(env, seen)), {});
    const { server } = createServer({ allowDestructive: true, noConfirm: true }, outer, toolsOf(await declaredVerbs()));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'wsctl-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const before = seen.length;
      for (const name of ['keys_list', 'keys_create', 'keys_list']) {
        const result = await client.callTool({ name, arguments: name === 'keys_create' ? { name: 'n' } : {} });
        expect(result.isError, name).toBeFalsy();
      }
      expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api-keys/', 'POST /api-keys/', 'GET /api-keys/']);
      expect(seen.length - before).toBe(3 * readsPerResolving(env));
    } finally {
      await client.close();
      await server.close();
      await outer.close();
    }
  });
});
