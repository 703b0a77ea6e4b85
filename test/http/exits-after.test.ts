// A command whose process exits next (bin/wsctl) leaves its connection to the exit, which closes
// it; a context in a process that goes on (a test's run, an MCP call of a server) closes its own.
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createCtx } from '../../src/cli/context.js';
import { run, silentDoor, tempDir } from '../helpers.js';

/** A service that answers every request with an empty key list, and knows its open connections. */
async function service() {
  const open = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(req.method === 'POST' ? JSON.stringify({ id: 'key_1', key: 'wsk_new' }) : JSON.stringify({ keys: [] }));
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, open, close };
}

/** Waits until open connections number n (a closed socket is heard on the server's side a moment later). */
async function openConnections(open: Set<Socket>, n: number): Promise<number> {
  for (let i = 0; i < 100 && open.size !== n; i++) await sleep(10);
  return open.size;
}

describe('a context closes its own connections unless its process exits next', () => {
  const services: { close(): void }[] = [];
  afterAll(() => {
    for (const s of services) s.close();
  });

  it('a command in a process that exits next leaves its connection open; any other closes it', async () => {
    const s = await service();
    services.push(s);
    const env = { WSCTL_BASE_URL: s.url, WSCTL_API_KEY: 'wsk_test', WSCTL_CONFIG_DIR: tempDir() };
    const closing = await run(['keys', 'list', '--json'], { env });
    expect([closing.code, closing.stderr]).toEqual([0, '']);
    expect(await openConnections(s.open, 0)).toBe(0);
    const exiting = await run(['keys', 'list', '--json'], { env, exitsAfter: true });
    expect([exiting.code, exiting.stdout]).toEqual([0, closing.stdout]);
    await sleep(200);
    expect(s.open.size).toBe(1);
  });

  it("an MCP call's context closes its own connection though the server's process exits after it", async () => {
    const s = await service();
    services.push(s);
    const env = { WSCTL_BASE_URL: s.url, WSCTL_API_KEY: 'wsk_test', WSCTL_CONFIG_DIR: tempDir(), HOME: tempDir() };
    const { io, prompt } = silentDoor();
    const signal = new AbortController().signal;
    const door = await createCtx({ io, env, signal, version: '0.0.0-test', prompt, exitsAfter: true }, {});
    const call = await door.forCall({ io, prompt, signal });
    // A request that is not safe to repeat takes the call's own connection, not the server's.
    const api = await call.api();
    await api.request({ method: 'POST', path: '/api-keys/', body: { name: 'n' }, anyBody: true });
    expect(s.open.size).toBe(1);
    await call.close();
    expect(await openConnections(s.open, 0)).toBe(0);
    await door.close();
  });
});
