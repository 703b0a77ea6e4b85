// The OS credential store (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring: one entry per profile of a config folder, named by
// resolve.ts's storeEntry(). Loaded only when a stored key is needed. A store that cannot be
// reached, or that does not answer within 3 s, counts as absent.

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

export interface CredentialStore {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, key: string): Promise<void>;
  /** true when an entry was there. */
  delete(service: string, account: string): Promise<boolean>;
}

type AsyncEntryClass = typeof import('@napi-rs/keyring').AsyncEntry;

/** The call's answer, or KeyringUnavailable when it fails or takes longer than the limit. */
async function bounded<T>(what: string, call: (signal: AbortSignal) => Promise<T>, timeoutMs: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeyringUnavailable(`the credential store did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), timeout]);
  } catch (error) {
    if (error instanceof KeyringUnavailable) throw error;
    const said = ((error as Error).message ?? String(error)).replace(/\s+/g, ' ').trim();
    throw new KeyringUnavailable(`the credential store could not ${what}`, `the credential store could not ${what}: ${said}`);
  } finally {
    clearTimeout(timer);
  }
}

export async function openCredentialStore(timeoutMs = KEYRING_TIMEOUT_MS): Promise<CredentialStore> {
  let AsyncEntry: AsyncEntryClass;
  try {
    ({ AsyncEntry } = await import('@napi-rs/keyring'));
  } catch (error) {
    throw new KeyringUnavailable(
      'the credential store module did not load',
      `the credential store module did not load: ${(error as Error).message.replace(/\s+/g, ' ')}`,
    );
  }
  // On Linux the library would fall back to the kernel keyring, which forgets every key at
  // reboot: the Secret Service or nothing (then config.json, with a warning).
  const entry = (service: string, account: string) => new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    get: (service, account) =>
      bounded('read the key', (signal) => entry(service, account).getPassword(signal), timeoutMs).then((v) => v ?? null),
    set: (service, account, key) => bounded('store the key', (signal) => entry(service, account).setPassword(key, signal), timeoutMs),
    delete: (service, account) => bounded('delete the key', (signal) => entry(service, account).deleteCredential(signal), timeoutMs),
  };
}
