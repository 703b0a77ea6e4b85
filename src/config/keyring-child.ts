// The credential store's calls, in a process of their own (built to dist/keyring-child.cjs and
// started by keyring.ts). A call the store never answers (a locked collection whose unlock prompt
// nobody can answer) blocks a thread of the native module that nothing can stop, and Node waits for
// that thread at exit; a process that holds it can be killed.
//
// Requests: JSON lines on stdin. Answers: JSON lines on fd 3, so that whatever the native module
// prints cannot be taken for one. stdin closing means wsctl is gone: the process ends at once, by a
// signal, since an exit would wait for the blocked thread too.
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { StoreAnswer, StoreRequest } from './keyring-protocol.js';

type Keyring = typeof import('@napi-rs/keyring');

const answers = new Socket({ fd: 3, readable: false, writable: true });
const answer = (a: StoreAnswer) => answers.write(`${JSON.stringify(a)}\n`);

let keyring: Keyring | undefined;
let loadError: string | undefined;
try {
  keyring = require('@napi-rs/keyring') as Keyring;
} catch (error) {
  loadError = (error as Error).message;
}

async function perform(request: StoreRequest): Promise<StoreAnswer> {
  if (!keyring) return { id: request.id, error: loadError ?? 'not loaded', unloaded: true };
  try {
    // On Linux the library would fall back to the kernel keyring, which forgets every key at
    // reboot: the Secret Service or nothing (then config.json, with a warning). Making the entry
    // already reaches the store, and may fail.
    const entry = new keyring.AsyncEntry(request.service, request.account, { linux: { store: 'secret-service' } });
    if (request.op === 'get') return { id: request.id, value: (await entry.getPassword()) ?? null };
    if (request.op === 'set') {
      await entry.setPassword(request.secret ?? '');
      return { id: request.id, value: null };
    }
    return { id: request.id, value: await entry.deleteCredential() };
  } catch (error) {
    return { id: request.id, error: (error as Error)?.message ?? String(error) };
  }
}

const requests = createInterface({ input: process.stdin });
requests.on('line', (line) => {
  void perform(JSON.parse(line) as StoreRequest).then(answer);
});
requests.on('close', () => process.kill(process.pid, 'SIGKILL'));
