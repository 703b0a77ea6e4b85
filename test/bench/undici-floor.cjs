// The floor of P2 with the design's HTTP client: the same GET as `keys list --json` with undici's
// Agent and request() (the parts wsctl loads, node:http2 stood in as in wsctl's build), the body
// re-indented to stdout, and Node's compile cache on where Node has it. The bench bundles this file
// as wsctl's build bundles undici (run.mjs), so that both load the same code the same way.
const Module = require('node:module');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
if (typeof Module.enableCompileCache === 'function') Module.enableCompileCache(join(tmpdir(), 'wsctl-bench-undici-floor'));
const request = require('undici/lib/api/api-request.js');
const Agent = require('undici/lib/dispatcher/agent.js');

const url = new URL('/api-keys/', process.env.WSCTL_BASE_URL);
const dispatcher = new Agent({ allowH2: false });
request
  .call(dispatcher, {
    origin: url.origin,
    path: url.pathname,
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.WSCTL_API_KEY}` },
  })
  .then((res) => res.body.text())
  .then((text) => {
    process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    return dispatcher.close();
  });
