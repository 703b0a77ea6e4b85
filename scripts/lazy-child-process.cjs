// Stands in for node:child_process inside commander, which needs it only to run executable
// subcommands (wsctl has none): loading it at start-up would cost every invocation.
let real;
module.exports = new Proxy({}, {
  get(_target, name) {
    real ??= require('node:child_process');
    return real[name];
  },
});
