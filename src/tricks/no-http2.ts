// A speed trick (./registry.ts): what undici gets for node:http2 (scripts/build.mjs gives it to
// undici's modules only). undici requires node:http2, which loads tls, as it loads, for HTTP/2
// connections wsctl never makes (allowH2 stays off, src/http/transport.ts). The shape is undici's
// own fallback for runtimes without http2: constants, and a connect that is never called.
export const constants = {};

export function connect(): never {
  throw new Error('HTTP/2 is not enabled in wsctl');
}
