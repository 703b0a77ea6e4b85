// The floor of one MCP tool call over stdio: the least a server in Node can do for `keys_list`.
// JSON lines on stdin and stdout, no SDK, no validation; a tools/call is the GET of the API keys on
// one kept-alive node:http connection, its body parsed and returned as the tool's result, as
// wsctl returns it (the JSON as text, and as structured content). Anything else gets an empty
// result. Run as `wsctl mcp` is: WSCTL_BASE_URL and WSCTL_API_KEY from the environment.
const http = require('node:http');
const { createInterface } = require('node:readline');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL('/api-keys/', process.env.WSCTL_BASE_URL);
const headers = { authorization: `Bearer ${process.env.WSCTL_API_KEY}` };

function answer(id, result) {
  process.stdout.write(`${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method !== 'tools/call') return answer(message.id, {});
  http.get(url, { agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      const document = JSON.parse(Buffer.concat(chunks).toString());
      answer(message.id, { content: [{ type: 'text', text: JSON.stringify(document) }], structuredContent: document });
    });
  });
});
