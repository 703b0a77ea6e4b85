// A speed trick (src/tricks/registry.ts lists them all): stands in for node:http inside undici,
// which wsctl's requests never use (undici speaks HTTP itself), while node:http takes 2-2.5 ms to
// load. undici reads three things of it (the build checks: scripts/build.mjs):
// - maxHeaderSize, as it makes a client: Node's 16 KiB unless --max-http-header-size (or
//   --max_http_header_size) was given, which the real module then says (a limit set in a Node
//   config file, Node 23.10+, is not seen: the switch turns this off);
// - STATUS_CODES, in fetch and the mocks, which wsctl does not use: the real ones;
// - IncomingMessage, which destroy() compares a stream's class with, to unhook a socket from a
//   node:http message first: wsctl never gives undici such a message to destroy, so no class is one.
// WSCTL_NO_TRICKS=1: the real module (from process.getBuiltinModule, since require() would be
// aliased back here).
const { tricksOn } = require('../bin/booleans.cjs');

const real = () => process.getBuiltinModule('node:http');
const limitGiven = () =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => /^--max[-_]http[-_]header[-_]size/.test(arg));

module.exports = tricksOn()
  ? {
      IncomingMessage: class IncomingMessage {},
      get maxHeaderSize() {
        return limitGiven() ? real().maxHeaderSize : 16 * 1024;
      },
      get STATUS_CODES() {
        return real().STATUS_CODES;
      },
    }
  : real();
