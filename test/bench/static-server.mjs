// The benchmark's server: large bodies served as static files (issue 14), from memory, so that
// the time measured is the client's. Each argument is id=file: GET …/<id> answers the file.
// id=a~b~n answers a to n-1 requests in a row, then b once, and again (a followed conversation
// that is running for n-1 polls, then idle). Prints its URL, then serves until killed.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const files = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg) => arg.split('='))
    .map(([id, spec]) => {
      const [first, last, n] = spec.split('~');
      const bodies = [readFileSync(first), last ? readFileSync(last) : undefined];
      let served = 0;
      return [id, () => (last && served++ % Number(n) === Number(n) - 1 ? bodies[1] : bodies[0])];
    }),
);
const server = http.createServer((req, res) => {
  const body = files[decodeURIComponent((req.url ?? '').split('?')[0].split('/').filter(Boolean).at(-1) ?? '')]?.();
  if (!body) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end('{"detail":"Not found"}');
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
