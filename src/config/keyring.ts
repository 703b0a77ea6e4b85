// The OS credential store (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring: one entry per profile of a config folder, named by
// resolve.ts's storeEntry(). A store that cannot be reached, or that does not answer within 3 s,
// counts as absent.
//
// The native module runs in a process of its own (keyring-child.ts), started at the first call
// and only then: a call the store never answers (a locked collection whose unlock prompt nobody
// can answer, on a headless server or WSL) blocks a native thread that cannot be cancelled, and
// Node joins that thread at exit, so in this process the command could never end. At the bound,
// or at Ctrl-C, that process is killed and the blocked call with it. Its cost is one Node start-up
// (about 40 ms) for a command that reads the store; other commands start nothing.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { InterruptedError } from '../errors.js';
import type { StoreAnswer, StoreRequest } from './keyring-protocol.js';

export const KEYRING_TIMEOUT_MS = 3000;

/** The store cannot be used; message is one short clause, detail the store's own text (for --debug). */
export class KeyringUnavailable extends Error {
  constructor(
    message: string,
    readonly detail = message,
  ) {
    super(message);
  }
}

/** The store did not answer within the bound: its process was killed, and later calls of the command fail at once. */
export class KeyringTimeout extends KeyringUnavailable {}

export interface CredentialStore {
  get(service: string, account: string, signal?: AbortSignal): Promise<string | null>;
  set(service: string, account: string, key: string, signal?: AbortSignal): Promise<void>;
  /** true when an entry was there. */
  delete(service: string, account: string, signal?: AbortSignal): Promise<boolean>;
}

/**
 * The child's file: dist/keyring-child.cjs, next to the program that holds this module; from the
 * sources (the in-process tests), the built one.
 */
function childFile(): string {
  const here = import.meta.url;
  const built = here.lastIndexOf('/dist/');
  return fileURLToPath(
    built >= 0 ? new URL(`${here.slice(0, built)}/dist/keyring-child.cjs`) : new URL('../../dist/keyring-child.cjs', here),
  );
}

const WHAT: Record<StoreRequest['op'], string> = { get: 'read the key', set: 'store the key', delete: 'delete the key' };

interface Pending {
  child: ChildProcess;
  what: string;
  signal: AbortSignal | undefined;
  settle(answer: StoreAnswer | Error): void;
}

/**
 * The store's process: one for all the calls of this process, started again after it was killed.
 * A store that did not answer within the bound counts as absent for the rest of the command (the
 * calls made with the same signal: a CLI command's, or one MCP call's), so no command waits twice;
 * a later MCP call asks again, the store may have been unlocked since.
 */
class StoreProcess {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly gaveUp = new WeakMap<object, KeyringTimeout>();
  /** The key in gaveUp of the calls made without a signal. */
  private readonly unsignalled = {};

  constructor(
    private readonly timeoutMs: number,
    /** node:child_process, loaded by the first store call: other commands never pay for it. */
    private readonly spawn: typeof import('node:child_process').spawn,
  ) {}

  call(request: Omit<StoreRequest, 'id'>, signal?: AbortSignal): Promise<StoreAnswer> {
    const what = WHAT[request.op];
    if (signal?.aborted) return Promise.reject(new InterruptedError());
    const timedOut = this.gaveUp.get(signal ?? this.unsignalled);
    if (timedOut) return Promise.reject(timedOut);
    let child: ChildProcess;
    try {
      child = this.started();
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.nextId++;
    return new Promise<StoreAnswer>((resolve, reject) => {
      const onAbort = () => {
        settle(new InterruptedError());
        // Nothing else waits on it: a call it may be blocked in goes with it.
        if (this.waitingOn(child).length === 0) this.stop(child);
      };
      const timer = setTimeout(() => {
        // Every call waits behind the one the store does not answer: all are given up together.
        const why = new KeyringTimeout(`the credential store did not answer within ${this.timeoutMs / 1000} s`);
        for (const p of this.waitingOn(child)) this.gaveUp.set(p.signal ?? this.unsignalled, why);
        this.stop(child, why);
      }, this.timeoutMs);
      const settle = (answer: StoreAnswer | Error) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      this.pending.set(id, { child, what, signal, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      (child.stdin as Writable).write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const file = childFile();
    if (!existsSync(file))
      throw new KeyringUnavailable('the credential store module did not load', `${file} is missing: run \`npm run build\``);
    // stderr is ours: a trace (NODE_DEBUG) or a word of the native module reads as it did in this process.
    const child = this.spawn(process.execPath, [file], { stdio: ['pipe', 'ignore', 'inherit', 'pipe'] });
    this.child = child;
    // An idle store process keeps nothing alive; a call's timer does while it waits.
    child.unref();
    for (const stream of [child.stdin, child.stdio[3]]) (stream as unknown as { unref?(): void }).unref?.();
    child.stdin?.on('error', () => {});
    let partial = '';
    (child.stdio[3] as Readable).setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        let answer: StoreAnswer;
        try {
          answer = JSON.parse(line) as StoreAnswer;
        } catch {
          continue;
        }
        this.pending.get(answer.id)?.settle(answer);
      }
    });
    const ended = (why: string) => {
      if (this.child === child) this.child = undefined;
      for (const p of this.waitingOn(child))
        p.settle(new KeyringUnavailable(`the credential store could not ${p.what}`, `the credential store could not ${p.what}: ${why}`));
    };
    child.on('error', (error) => ended(error.message));
    child.on('exit', (code, signal) => ended(`its process ended (${signal ?? `exit ${code}`})`));
    return child;
  }

  /** Kills the process (and any call blocked in it); calls still waiting get `why`. */
  private stop(child: ChildProcess, why?: Error): void {
    if (this.child === child) this.child = undefined;
    if (why) for (const p of this.waitingOn(child)) p.settle(why);
    child.kill('SIGKILL');
  }

  private waitingOn(child: ChildProcess): Pending[] {
    return [...this.pending.values()].filter((p) => p.child === child);
  }
}

/** The call's answer, or KeyringUnavailable when it fails, or InterruptedError at Ctrl-C. */
async function ask<T>(store: StoreProcess, request: Omit<StoreRequest, 'id'>, signal?: AbortSignal): Promise<T> {
  const what = WHAT[request.op];
  const answer = await store.call(request, signal);
  if (!('error' in answer)) return answer.value as T;
  const said = answer.error.replace(/\s+/g, ' ').trim();
  if (answer.unloaded)
    throw new KeyringUnavailable('the credential store module did not load', `the credential store module did not load: ${said}`);
  throw new KeyringUnavailable(`the credential store could not ${what}`, `the credential store could not ${what}: ${said}`);
}

export async function openCredentialStore(timeoutMs = KEYRING_TIMEOUT_MS): Promise<CredentialStore> {
  const store = new StoreProcess(timeoutMs, (await import('node:child_process')).spawn);
  return {
    get: (service, account, signal) => ask<string | null>(store, { op: 'get', service, account }, signal),
    set: (service, account, key, signal) => ask<null>(store, { op: 'set', service, account, secret: key }, signal).then(() => undefined),
    delete: (service, account, signal) => ask<boolean>(store, { op: 'delete', service, account }, signal),
  };
}
