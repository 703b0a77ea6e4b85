// A tool call's `jq` filter (cli.md §8): each value as compact JSON, one per line, and
// `{"jq": [...]}`, which every output schema admits; a filter that does not compile sends nothing,
// one that fails is an error with jq's message (exit code 2); the 4 MiB bound holds for what the
// filter gives, so a filter rescues a large transcript; a filter runs beside other calls and
// `notifications/cancelled` ends its thread; `wsctl mcp` loads the engine for such a call alone.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, startSandbox, tempDir } from '../helpers.js';
import { connect, loadTools, texts, type Connected } from './harness.js';

const open: Connected[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function server(env: Record<string, string>): Promise<Connected> {
  const c = await connect({ allowDestructive: true }, env);
  open.push(c);
  // Listed first, the client checks every structuredContent against the tool's output schema.
  await c.client.listTools();
  return c;
}

/** A process's threads (Linux), by id: the clock ticks each has run. */
function threads(pid: number | string): Map<string, number> {
  const ran = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      // After the name in parentheses: state, then utime and stime at 12 and 13.
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      ran.set(tid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ran;
}

/**
 * The thread running a filter that never ends: one that was not there before the call and keeps
 * running (20 ticks, 0.2 s of CPU: the process's other new threads, a thread pool's, wait idle).
 */
async function filterThread(pid: number | string, known: Set<string>): Promise<string> {
  let found: string | undefined;
  await until(() => {
    found = [...threads(pid)].find(([tid, ticks]) => !known.has(tid) && ticks >= 20)?.[0];
    return found !== undefined;
  }, 'a thread running the filter');
  return found!;
}

/** Waits until `done` holds, checking every 20 ms; fails, saying `what`, past 20 s (a bound for failure only). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 20_000) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A transcript of 60 messages of 100 KB: 5 MB for the last 50, past the 4 MiB a tool returns. */
function bigConversation() {
  return {
    conversation: { id: 'conv_big', title: 'Big' },
    state: 'idle',
    messages: Array.from({ length: 60 }, (_, i) => ({
      kind: 'request',
      parts: [{ part_kind: 'user-prompt', content: `${i} ${'x'.repeat(100_000)}` }],
    })),
  } as never;
}

describe('jq on the MCP door', () => {
  it('keys_list through a filter: each value as compact JSON on its own line, and {"jq": [those values]}', async () => {
    const sb = await startSandbox();
    const { client } = await server(sb.env);
    const ids = sb.state.keys.map((k) => k.id);
    const objects = await client.callTool({ name: 'keys_list', arguments: { jq: '.keys[] | {id, n: 1}' } });
    expect(objects.isError, texts(objects).join()).toBeFalsy();
    expect(texts(objects)).toEqual([ids.map((id) => `{"id":"${id}","n":1}`).join('\n')]);
    expect(objects.structuredContent).toEqual({ jq: ids.map((id) => ({ id, n: 1 })) });
    // Strings are JSON too (quoted), unlike --jq's raw lines; a filter that gives nothing gives no line.
    const strings = await client.callTool({ name: 'keys_list', arguments: { jq: '.keys[0].id, "a\\nb", null' } });
    expect(texts(strings)).toEqual([`"${ids[0]}"\n"a\\nb"\nnull`]);
    expect(strings.structuredContent).toEqual({ jq: [ids[0], 'a\nb', null] });
    const none = await client.callTool({ name: 'keys_list', arguments: { jq: 'empty' } });
    expect([texts(none), none.structuredContent]).toEqual([[''], { jq: [] }]);
    // Without jq, the document as before.
    const plain = await client.callTool({ name: 'keys_list', arguments: {} });
    expect((plain.structuredContent as { keys: unknown[] }).keys).toHaveLength(ids.length);
  });

  it('every output schema keeps type "object" at its root and admits {"jq": [...]} as one branch of anyOf, and the document still', async () => {
    const sb = await startSandbox();
    const { client } = await server(sb.env);
    const ajv = new Ajv({ strict: false });
    const { tools } = await client.listTools();
    const values = { jq: ['a', 1, null, true, { b: [] }, []] };
    for (const tool of tools) {
      const schema = tool.outputSchema as { type: string; anyOf: { required?: string[] }[] };
      expect(schema.type, tool.name).toBe('object');
      const branches = schema.anyOf.filter((branch) => branch.required?.includes('jq'));
      expect(branches, tool.name).toHaveLength(1);
      const valid = ajv.compile(schema);
      expect(valid(values), `${tool.name}: ${ajv.errorsText(valid.errors)}`).toBe(true);
      expect(ajv.validate(branches[0]!, { jq: 'not an array' }), tool.name).toBe(false);
      expect(tool.inputSchema.properties?.jq, tool.name).toMatchObject({ type: 'string' });
    }
    // A real result, filtered and not, against its tool's declared schema.
    const keysList = ajv.compile((await loadTools()).find((t) => t.name === 'keys_list')!.listing.outputSchema);
    for (const args of [{}, { jq: '.keys[].id' }]) {
      const result = await client.callTool({ name: 'keys_list', arguments: args });
      expect(keysList(result.structuredContent), ajv.errorsText(keysList.errors)).toBe(true);
    }
  });

  it('a filter rescues a convo_show over 4 MiB; its values replace the Markdown; a filter that gives more than 4 MiB is refused', async () => {
    const sb = await startSandbox();
    sb.state.conversations.conv_big = bigConversation();
    const { client } = await server(sb.env);
    const whole = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_big' } });
    expect(texts(whole)[0]).toMatch(/^Error: The result is \d+\.\d MiB, more than the 4 MiB a tool returns: .*a jq filter that keeps less/);
    const counted = await client.callTool({
      name: 'convo_show',
      arguments: { conversation_id: 'conv_big', jq: '(.messages | length), (.messages[-1].parts[0].content | length)' },
    });
    expect(counted.isError, texts(counted).join()).toBeFalsy();
    // The filter's output is what is sent: no transcript as Markdown beside it.
    expect(counted.content).toEqual([{ type: 'text', text: '50\n100003' }]);
    expect(counted.structuredContent).toEqual({ jq: [50, 100003] });
    const all = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_big', jq: '.messages[]' } });
    expect(all.isError).toBe(true);
    expect(all.structuredContent).toBeUndefined();
    expect(texts(all)[0]).toBe(
      'Error: The result is more than 4 MiB, the most a tool returns: pass a jq filter that keeps less. (exit code 2)',
    );
    // The demo's transcript, filtered: values, not Markdown.
    const demo = await client.callTool({ name: 'convo_show', arguments: { conversation_id: 'conv_demo', jq: '.conversation.id' } });
    expect(demo.content).toEqual([{ type: 'text', text: '"conv_demo"' }]);
  });

  it("a filter that does not compile sends nothing; one that fails is an error with jq's message; both exit code 2", async () => {
    const sb = await startSandbox();
    const { client } = await server(sb.env);
    const keys = sb.state.keys.length;
    const typo = await client.callTool({ name: 'keys_create', arguments: { name: 'ci', jq: '.key |' } });
    expect(typo.isError).toBe(true);
    expect(typo.structuredContent).toBeUndefined();
    expect(texts(typo)[0]).toBe(
      'Error: Invalid jq filter: jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 6 (exit code 2)',
    );
    expect(sb.requests).toEqual([]);
    expect(sb.state.keys).toHaveLength(keys);
    const fails = await client.callTool({ name: 'keys_list', arguments: { jq: '.keys | tonumber' } });
    expect(fails.isError).toBe(true);
    expect(texts(fails)[0]).toMatch(/^Error: jq failed: jq: error: array \(\[.*\]\) cannot be parsed as a number \(exit code 2\)$/);
    const wrong = await client.callTool({ name: 'keys_list', arguments: { jq: 7 } });
    expect(texts(wrong)[0]).toBe('Error: Invalid jq: expected a string, got a number. (exit code 2)');
    // A new key is never lost to a filter that fails on it: its document follows the error.
    const created = await client.callTool({ name: 'keys_create', arguments: { name: 'ci', jq: 'error("no")' } });
    expect(texts(created)[0]).toBe('Error: jq failed: jq: error: no (exit code 2)');
    expect(JSON.parse(texts(created)[2]!)).toMatchObject({ name: 'ci', id: sb.state.keys.at(-1)!.id });
  });

  it('a filter that needs more than 1 GiB ends with one line, exit code 2, and the server goes on', { timeout: 60_000 }, async () => {
    const sb = await startSandbox();
    const { client } = await server(sb.env);
    const greedy = await client.callTool({ name: 'caps', arguments: { jq: '[range(1e8)]' } });
    expect(greedy.isError).toBe(true);
    expect(texts(greedy)[0]).toBe('Error: jq: the filter needs more than 1 GiB of memory. (exit code 2)');
    const next = await client.callTool({ name: 'keys_list', arguments: { jq: '.keys | length' } });
    expect(next.structuredContent).toEqual({ jq: [sb.state.keys.length] });
  });

  it('a filter that never ends runs beside other calls, and notifications/cancelled ends its thread; the server goes on', async () => {
    const sb = await startSandbox();
    const { client } = await server(sb.env);
    const known = new Set(threads('self').keys());
    const cancel = new AbortController();
    let settled = false;
    const endless = client.callTool({ name: 'caps', arguments: { jq: 'last(range(infinite))' } }, undefined, { signal: cancel.signal });
    endless.then(
      () => (settled = true),
      () => (settled = true),
    );
    const running = await filterThread('self', known);
    const meanwhile = await client.callTool({ name: 'keys_list', arguments: { jq: '.keys | length' } });
    expect(meanwhile.structuredContent).toEqual({ jq: [sb.state.keys.length] });
    expect(settled).toBe(false);
    cancel.abort();
    await expect(endless).rejects.toThrow();
    await until(() => !existsSync(`/proc/self/task/${running}`), 'the cancelled filter’s thread to end');
    const after = await client.callTool({ name: 'keys_list', arguments: {} });
    expect(after.isError, texts(after).join()).toBeFalsy();
  });
});

describe('the built wsctl mcp', () => {
  it('loads the jq engine for a call that passes jq alone, answers other calls meanwhile, and sends nothing for a cancelled one', async () => {
    // Node's trace of the modules loaded, without Node's compile cache.
    const child = spawn(process.execPath, [BIN, 'mcp', '--sandbox'], {
      env: {
        PATH: process.env.PATH,
        HOME: tempDir(),
        WSCTL_CONFIG_DIR: tempDir(),
        NODE_DISABLE_COMPILE_CACHE: '1',
        NODE_DEBUG: 'esm,module',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const answers: { id: number; result?: { isError?: boolean; structuredContent?: unknown; instructions?: string } }[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => answers.push(JSON.parse(line)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answer = async (id: number) => {
      await until(() => answers.some((a) => a.id === id), `the answer to ${id}`);
      return answers.find((a) => a.id === id)!.result!;
    };
    const call = (id: number, name: string, args: object) => send({ id, method: 'tools/call', params: { name, arguments: args } });
    // The engine's file (the worker and its glue, dist/jq-worker.cjs).
    const loadedJq = () =>
      stderr.split('\n').filter((l) => /Storing file:|Module._load REQUEST|load "?\//.test(l) && /dist\/jq-worker\.cjs|jq-wasm/.test(l));
    try {
      send({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      expect((await answer(0)).instructions).toMatch(/optional `jq` argument, a jq 1\.8 filter/);
      send({ method: 'notifications/initialized' });
      call(1, 'keys_list', {});
      expect((await answer(1)).isError).toBeFalsy();
      // The program's own parts are one file (dist/wsctl.cjs): the trace sees the files beside it.
      // The main thread never loads the engine's: a filter runs on a thread of its own (below).
      expect(stderr, 'the trace sees what loads').toContain('complete.cjs');
      expect(loadedJq()).toEqual([]);

      const known = new Set(threads(child.pid!).keys());
      call(2, 'caps', { jq: 'last(range(infinite))' });
      const running = await filterThread(child.pid!, known);
      expect(loadedJq()).toEqual([]);
      call(3, 'keys_list', { jq: '.keys | length' });
      expect((await answer(3)).structuredContent).toEqual({ jq: [2] });
      send({ method: 'notifications/cancelled', params: { requestId: 2, reason: 'enough' } });
      await until(() => !existsSync(`/proc/${child.pid}/task/${running}`), 'the cancelled filter’s thread to end');
      call(4, 'keys_list', {});
      expect((await answer(4)).isError).toBeFalsy();
      expect(answers.map((a) => a.id)).toEqual([0, 1, 3, 4]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
