// The OS credential store (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring: one entry per profile, under a service named after the config
// folder so that two config folders never share entries. Loaded only when a stored key is needed.
// A store that cannot be reached, or that does not answer within 3 s, counts as absent.

export const KEYRING_TIMEOUT_MS = 3000;

export class KeyringUnavailable extends Error {}

export interface CredentialStore {
  get(profile: string): Promise<string | null>;
  set(profile: string, key: string): Promise<void>;
  /** true when an entry was there. */
  delete(profile: string): Promise<boolean>;
}

type AsyncEntryClass = typeof import('@napi-rs/keyring').AsyncEntry;

function serviceName(configDir: string): string {
  return `wsctl:${configDir}`;
}

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
    const said = ((error as Error).message ?? String(error)).split('\n')[0]?.slice(0, 160);
    throw new KeyringUnavailable(`the credential store cannot be reached (${what}: ${said})`);
  } finally {
    clearTimeout(timer);
  }
}

export async function openCredentialStore(configDir: string, timeoutMs = KEYRING_TIMEOUT_MS): Promise<CredentialStore> {
  let AsyncEntry: AsyncEntryClass;
  try {
    ({ AsyncEntry } = await import('@napi-rs/keyring'));
  } catch (error) {
    throw new KeyringUnavailable(`the credential store module did not load (${(error as Error).message.split('\n')[0]})`);
  }
  const service = serviceName(configDir);
  // On Linux the library would fall back to the kernel keyring, which forgets every key at
  // reboot: the Secret Service or nothing (then config.json, with a warning).
  const entry = (profile: string) => new AsyncEntry(service, profile, { linux: { store: 'secret-service' } });
  return {
    get: (profile) => bounded('read', (signal) => entry(profile).getPassword(signal), timeoutMs).then((v) => v ?? null),
    set: (profile, key) => bounded('write', (signal) => entry(profile).setPassword(key, signal), timeoutMs),
    delete: (profile) => bounded('delete', (signal) => entry(profile).deleteCredential(signal), timeoutMs),
  };
}
