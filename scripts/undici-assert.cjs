// A speed trick (src/tricks/registry.ts lists them all): stands in for node:assert inside undici,
// which calls assert(value) for its invariants and uses nothing else of the module (the build
// checks: scripts/build.mjs), while node:assert takes 1.5-2.5 ms to load. A broken invariant
// still throws an AssertionError with code ERR_ASSERTION, which undici passes on as it does the
// real one's. WSCTL_NO_TRICKS=1: the real module (from process.getBuiltinModule, since require()
// would be aliased back here).
const { tricksOn } = require('../bin/booleans.cjs');

function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const error = new Error(message ?? 'The expression evaluated to a falsy value');
  error.name = 'AssertionError';
  error.code = 'ERR_ASSERTION';
  throw error;
}

module.exports = tricksOn() ? assert : process.getBuiltinModule('node:assert');
