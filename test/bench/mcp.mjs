// The MCP rows of npm run bench: a client of `wsctl mcp` in plain JSON lines over the child's
// stdin and stdout (no SDK), and the references: a Node start (`node -e 0`) and the same GET as
// the keys_list tool on a kept-alive node:http connection from this process.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wsctl-bench', version: '1' } },
};

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** A started `wsctl mcp`: send() writes a request and resolves with its answer (by id). */
function server(argv, env) {
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let failed;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    const wait = waiting.get(message.id);
    if (wait) {
      waiting.delete(message.id);
      if (message.error || message.result?.isError) wait.reject(new Error(`wsctl mcp: ${line.slice(0, 300)}`));
      else wait.resolve(message);
    }
  });
  child.on('exit', (code) => {
    failed = new Error(`wsctl mcp exited (${code})`);
    for (const wait of waiting.values()) wait.reject(failed);
  });
  return {
    send(message) {
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        if (message.id !== undefined) waiting.set(message.id, { resolve, reject });
        child.stdin.write(`${JSON.stringify(message)}\n`);
        if (message.id === undefined) resolve();
      });
    },
    close() {
      child.stdin.end();
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', resolve)));
    },
  };
}

/** Milliseconds from spawning `wsctl mcp` (argv) to its answer to `initialize`. */
export async function initializeAnswered(argv, env) {
  const started = process.hrtime.bigint();
  const s = server(argv, env);
  await s.send(INITIALIZE);
  const took = ms(started);
  await s.close();
  return took;
}

/** Milliseconds from spawning `wsctl mcp` (argv) to its answer to `tools/list`, sent after `initialize` is answered: what a client waits for before its first call. */
export async function toolsListed(argv, env) {
  const started = process.hrtime.bigint();
  const s = server(argv, env);
  await s.send(INITIALIZE);
  await s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await s.send({ jsonrpc: '2.0', id: 'tools', method: 'tools/list' });
  const took = ms(started);
  await s.close();
  return took;
}

/** Milliseconds from spawning argv to its exit (the reference `node -e 0`, timed the same way). */
export function spawnToExit(argv, env) {
  const started = process.hrtime.bigint();
  const child = spawn(argv[0], argv.slice(1), { env, stdio: 'ignore' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(ms(started)) : reject(new Error(`${argv.join(' ')} exited ${code}`)))),
  );
}

/** A running, initialized `wsctl mcp`: call(name) times one tools/call, answer received. */
export async function mcpSession(argv, env) {
  const s = server(argv, env);
  await s.send(INITIALIZE);
  await s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  let id = 1;
  return {
    async call(name, args = {}) {
      const started = process.hrtime.bigint();
      await s.send({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
      return ms(started);
    },
    close: () => s.close(),
  };
}

/** The same GET as the keys_list tool, from this process on one kept-alive node:http connection, body parsed. */
export function keptAliveGet(baseUrl, key) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL('/api-keys/', baseUrl);
  return {
    get() {
      const started = process.hrtime.bigint();
      return new Promise((resolve, reject) => {
        http
          .get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => {
              if (res.statusCode !== 200 || !Array.isArray(JSON.parse(Buffer.concat(chunks).toString()).keys))
                reject(new Error(`GET ${url}: ${res.statusCode}`));
              else resolve(ms(started));
            });
          })
          .on('error', reject);
      });
    },
    close: () => agent.destroy(),
  };
}
