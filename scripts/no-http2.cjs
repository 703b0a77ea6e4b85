// A speed trick (src/tricks/registry.ts lists them all): stands in for node:http2 inside undici, which
// loads it (and tls) at start-up for HTTP/2 connections that wsctl never makes (allowH2 stays
// off). The shape is undici's own fallback for runtimes without http2. WSCTL_NO_TRICKS=1: the
// real module (from process.getBuiltinModule, since require() would be aliased back here).
const { tricksOn } = require('../bin/booleans.cjs');

module.exports = tricksOn()
  ? {
      constants: {},
      connect() {
        throw new Error('HTTP/2 is not enabled in wsctl');
      },
    }
  : process.getBuiltinModule('node:http2');
