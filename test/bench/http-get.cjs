// The reference of goal P2: the same GET as `wsctl keys list --json`, with node:http alone, as
// CommonJS (an ES module's `import 'node:http'` costs 20-30 ms more on Node 22+: see NOTES.md).
const http = require('node:http');

const url = new URL('/api-keys/', process.env.WSCTL_BASE_URL);
http.get(url, { headers: { authorization: `Bearer ${process.env.WSCTL_API_KEY}` } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(`${JSON.stringify(JSON.parse(Buffer.concat(chunks).toString()), null, 2)}\n`));
});
