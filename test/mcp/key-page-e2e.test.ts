// The built `wsctl mcp`, as a client starts it, with a person's browser beside it: the page's
// server is not loaded at start (nor by other calls), only once byok_add needs it; the key posted
// on the page reaches the service and appears in no result and nowhere on stderr, --debug trace included.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers.js';

const KEY = 'sk-provider-e2e-0123456789abcdef';

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 20_000) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The page's form post, as a browser sends it from the page. */
function postForm(url: string, fields: Record<string, string>): Promise<number> {
  const { hostname, port, pathname, origin, host } = new URL(url);
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path: pathname,
        method: 'POST',
        agent: false,
        headers: { Host: host, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON-RPC message from the server, as far as this test reads it. */
interface Message {
  id?: number;
  method?: string;
  params: { mode: string; url: string };
  result: { isError?: boolean; instructions?: string; structuredContent?: unknown };
}

describe('the built wsctl mcp', () => {
  it('loads the page only for byok_add; the key posted there is sent, and said nowhere', { timeout: 60_000 }, async () => {
    // ES modules (not Node 20's one CommonJS file), so that the trace names each module loaded.
    const child = spawn(process.execPath, [BIN, 'mcp', '--sandbox', '--debug'], {
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
    let stdout = '';
    child.stderr.on('data', (c) => (stderr += c));
    const messages: Message[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout += `${line}\n`;
      messages.push(JSON.parse(line));
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answer = async (id: number) => {
      await until(() => messages.some((m) => m.id === id && !m.method), `the answer to ${id}`);
      return messages.find((m) => m.id === id && !m.method)!.result;
    };
    const loadedPage = () =>
      stderr.split('\n').filter((l) => /Storing file:|Module._load REQUEST|load "?\//.test(l) && /chunks\/page-ask-/.test(l));
    try {
      send({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { url: {} } }, clientInfo: { name: 't', version: '1' } },
      });
      expect((await answer(0)).instructions).toMatch(/byok_add takes no API key/);
      send({ method: 'notifications/initialized' });
      send({ id: 1, method: 'tools/call', params: { name: 'keys_list', arguments: {} } });
      expect((await answer(1)).isError).toBeFalsy();
      expect(stderr, 'the trace sees what loads').toContain('chunks/mcp-server-');
      expect(loadedPage()).toEqual([]);

      send({
        id: 2,
        method: 'tools/call',
        params: {
          name: 'byok_add',
          arguments: { name: 'fast', provider_url: 'https://api.groq.com/openai/v1', format: 'groq', model: 'llama-3.3-70b' },
        },
      });
      await until(() => messages.some((m) => m.method === 'elicitation/create'), 'the page to be offered');
      const asked = messages.find((m) => m.method === 'elicitation/create')!;
      expect(asked.params.mode).toBe('url');
      // stdout and stderr are two pipes: the trace of the load may arrive after the question.
      await until(() => loadedPage().length > 0, 'the trace of the page loading');
      send({ id: asked.id, result: { action: 'accept' } });
      expect(await postForm(asked.params.url, { key: KEY, answer: 'submit' })).toBe(200);
      const result = await answer(2);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ name: 'fast', api_key: 'sk-p…cdef' });
      await until(() => stderr.includes('POST'), 'the --debug trace of the request');
      expect(stdout).not.toContain(KEY);
      expect(stderr).not.toContain(KEY);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
