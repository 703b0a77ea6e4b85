// A purpose-built service for tests of the ids wsctl remembers: it counts every request.
import { createServer, type Server } from 'node:http';

/** A service that answers any persona's versions with none, and counts what it was asked. */
export async function countingServer(): Promise<{ url: string; requests: string[]; close(): void }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (/^\/pub\/personas\/[^/]+\/published$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"published": []}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"detail": "Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests, close: () => server.close() };
}
