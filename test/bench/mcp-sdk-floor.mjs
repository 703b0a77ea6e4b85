// The floor of one MCP tool call with the design's libraries: the MCP SDK's stdio Server (as wsctl
// uses it: the low-level Server, every message checked by the SDK's schemas) and undici's Agent
// and request() on one kept-alive connection, and nothing of wsctl. A tools/call is the GET of
// the API keys, its body parsed and returned as wsctl returns it (the JSON as text, and as
// structured content). Run as `wsctl mcp` is: WSCTL_BASE_URL and WSCTL_API_KEY from the
// environment.
import { createRequire } from 'node:module';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const require = createRequire(import.meta.url);
const request = require('undici/lib/api/api-request.js');
const Agent = require('undici/lib/dispatcher/agent.js');

const url = new URL('/api-keys/', process.env.WSCTL_BASE_URL);
const dispatcher = new Agent({ allowH2: false });
const headers = { authorization: `Bearer ${process.env.WSCTL_API_KEY}` };

const server = new Server({ name: 'floor', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'keys_list', description: 'List API keys', inputSchema: { type: 'object', properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => {
  const res = await request.call(dispatcher, { origin: url.origin, path: url.pathname, method: 'GET', headers });
  const document = JSON.parse(await res.body.text());
  return { content: [{ type: 'text', text: JSON.stringify(document) }], structuredContent: document };
});
await server.connect(new StdioServerTransport());
