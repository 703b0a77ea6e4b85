// A speed trick (src/tricks/registry.ts lists them all): stands in for node:child_process inside
// commander, which needs it only to run executable subcommands (wsctl has none): loading it at
// start-up would cost every invocation. The real module comes from process.getBuiltinModule,
// not require(), which the build's alias would send back to this file. WSCTL_NO_TRICKS=1: the
// real module at once.
const { tricksOn } = require('../bin/booleans.cjs');

const load = () => process.getBuiltinModule('node:child_process');
let real;
module.exports = tricksOn()
  ? new Proxy(
      {},
      {
        get(_target, name) {
          real ??= load();
          return real[name];
        },
      },
    )
  : load();
