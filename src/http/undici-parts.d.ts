// Without a proxy, wsctl imports only the parts of undici it uses (an agent and request())
// instead of its index, which also loads fetch, WebSocket, caches and mocks at start-up.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}
