// Stands in for node:http2 inside undici, which loads it (and tls) at start-up for HTTP/2
// connections that wsctl never makes (allowH2 stays off). The shape is undici's own fallback
// for runtimes without http2.
module.exports = {
  constants: {},
  connect() {
    throw new Error('HTTP/2 is not enabled in wsctl');
  },
};
