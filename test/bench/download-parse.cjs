// The floor of goal P3: a Node process that downloads a conversation with node:http and
// JSON.parses it, nothing more. Usage: node download-parse.cjs <conversation id>.
const http = require('node:http');

const url = new URL(`/conversations/${process.argv[2]}`, process.env.WSCTL_BASE_URL);
http.get(url, { headers: { authorization: `Bearer ${process.env.WSCTL_API_KEY}` } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    if (!Array.isArray(body.messages)) process.exitCode = 1;
  });
});
