// P3's server: the large conversations served as static files (issue 14), from memory, so that
// the time measured is the client's. Prints its URL, then serves until killed.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const files = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=')).map(([id, path]) => [id, readFileSync(path)]));
const server = http.createServer((req, res) => {
  const body = files[decodeURIComponent((req.url ?? '').split('/').filter(Boolean).at(-1) ?? '')];
  if (!body) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end('{"detail":"Not found"}');
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
