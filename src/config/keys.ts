// Where a profile's key lives (cli.md §2): the OS credential store, else config.json with one
// warning; --insecure-storage picks the file on purpose. config.json records only that the key
// is in the store, so listing profiles never touches the store. Which entry belongs to a profile
// is decided in resolve.ts; a store that is locked, hangs or lost the entry never blocks a new
// login or a logout. config.json keeps saying that a profile has an entry in the store
// (key_storage) until that entry is really gone, beside a key in the file if need be (the file's
// is the one used): no entry is ever left that no later command can find and remove.
import { AuthError } from '../errors.js';
import { profileOf, type ConfigStore } from './index.js';
import { KeyringUnavailable, openCredentialStore, type CredentialStore } from './keyring.js';
import type { StoreEntry } from './resolve.js';

export type KeyStorage = 'keyring' | 'file';

export interface StoredKey {
  key?: string;
  storage: KeyStorage | null;
}

/** Where the store's own words go (--debug); warnings for the user stay one line. */
export type Trace = (line: string) => void;

let opened: Promise<CredentialStore> | undefined;

function credentialStore(): Promise<CredentialStore> {
  opened ??= openCredentialStore();
  return opened;
}

/**
 * The profile's key as the HTTP client reads it when a request goes out (src/http/auth.ts): from
 * here, so that sending a request runs nothing of the context that resolved the target.
 */
export function keyringReader(entry: StoreEntry, trace: Trace, signal?: AbortSignal): () => Promise<string> {
  return () => readKeyring(entry, trace, signal);
}

/**
 * The key in the profile's store entry. An entry written by an earlier version under another
 * absolute spelling of the folder is found and moved to the entry's name (resolve.ts's storeEntry
 * never offers a relative one).
 */
export async function readKeyring(entry: StoreEntry, trace: Trace = () => {}, signal?: AbortSignal): Promise<string> {
  const profile = entry.account;
  try {
    const store = await credentialStore();
    const key = await store.get(entry.service, profile, signal);
    if (key) return key;
    for (const legacy of entry.legacy) {
      const old = await store.get(legacy, profile, signal);
      if (!old) continue;
      await store.set(entry.service, profile, old, signal);
      await store.delete(legacy, profile, signal);
      trace(`moved the key of profile '${profile}' from credential store entry '${legacy}' to '${entry.service}'`);
      return old;
    }
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    trace(error.detail);
    throw new AuthError(
      `The key of profile '${profile}' is in the credential store, but ${error.message}. Unlock the store, or run \`wsctl auth login --profile ${profile}\` to replace the key.`,
      { reason: 'credential_store' },
    );
  }
  throw new AuthError(
    `Profile '${profile}' keeps its key in the credential store, but the store has no entry for it. Run \`wsctl auth login --profile ${profile}\`.`,
    { reason: 'credential_store', next: [{ words: ['auth', 'login', '--profile', profile], why: 'Stores a key for the profile again.' }] },
  );
}

/**
 * Stores the key with its base URL as the profile; returns where it went. The old key is never read.
 * A key that goes to the file leaves the profile's entry in the store named (key_storage) until the
 * entry is deleted, which is tried at once unless the store just failed.
 */
export async function storeKey(
  config: ConfigStore,
  entry: StoreEntry,
  values: { baseUrl: string; key: string; insecure: boolean; makeCurrent?: boolean; signal?: AbortSignal },
  warn: (message: string) => void,
  trace: Trace = () => {},
): Promise<KeyStorage> {
  const profile = entry.account;
  let storage: KeyStorage = 'file';
  let fellBack = false;
  if (!values.insecure) {
    try {
      await (await credentialStore()).set(entry.service, profile, values.key, values.signal);
      storage = 'keyring';
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error;
      trace(error.detail);
      fellBack = true;
    }
  }
  let wasInStore = false;
  await config.update((data) => {
    const { api_key: _oldKey, key_storage: oldStorage, ...rest } = profileOf(data, profile) ?? {};
    wasInStore = oldStorage === 'keyring';
    data.profiles[profile] =
      storage === 'keyring'
        ? { ...rest, base_url: values.baseUrl, key_storage: 'keyring' }
        : { ...rest, base_url: values.baseUrl, api_key: values.key, ...(wasInStore ? { key_storage: 'keyring' as const } : {}) };
    if (values.makeCurrent) data.current_profile ??= profile;
  });
  // Said only once it is true: the file has been written.
  if (fellBack)
    warn(
      `No credential store could be reached, so the key is stored in ${config.path} (mode 0600) instead; --debug shows why, --insecure-storage skips this warning.`,
    );
  // A key that moved from the store to the file leaves no copy behind, if the store lets us; a
  // store that just failed is not asked again (its entry stays named, for a later login or logout).
  if (storage === 'file' && wasInStore && !fellBack) {
    const left = await forgetEntry(entry, trace, values.signal);
    if (left)
      warn(
        `The previous key of profile '${profile}' is still in the credential store (${left.message}): \`wsctl auth logout --profile ${profile}\` or the next login removes it once the store answers.`,
      );
    else
      await config.update((data) => {
        const stored = profileOf(data, profile);
        if (stored?.api_key === values.key) delete stored.key_storage;
      });
  }
  return storage;
}

/** Deletes the entry (and its older spellings); undefined when done, else why not. */
async function forgetEntry(entry: StoreEntry, trace: Trace, signal?: AbortSignal): Promise<KeyringUnavailable | undefined> {
  try {
    const store = await credentialStore();
    for (const service of [entry.service, ...entry.legacy]) await store.delete(service, entry.account, signal);
    return undefined;
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    trace(error.detail);
    return error;
  }
}

export interface Forgotten {
  /** Profiles whose key is gone (from the file, the store, or both). */
  forgotten: string[];
  /** Profiles whose store entry could not be removed, with why: config.json still names it. */
  leftInStore: { profile: string; entry: StoreEntry; reason: string }[];
}

/**
 * Forgets the keys of these profiles, in the store and in the file. A profile whose entry could
 * not be removed keeps pointing at it (key_storage), so that running this again once the store
 * answers removes it; a profile removed with its entry left is said to be so (leftInStore).
 */
export async function forgetKeys(
  config: ConfigStore,
  entries: StoreEntry[],
  removeProfiles: boolean,
  trace: Trace = () => {},
  signal?: AbortSignal,
): Promise<Forgotten> {
  const data = config.read();
  const forgotten: string[] = [];
  const leftInStore: Forgotten['leftInStore'] = [];
  // A store that did not answer within the bound fails the later entries at once (keyring.ts).
  for (const entry of entries) {
    const name = entry.account;
    const stored = profileOf(data, name);
    if (stored?.key_storage === 'keyring') {
      const failure = await forgetEntry(entry, trace, signal);
      if (failure) leftInStore.push({ profile: name, entry, reason: failure.message });
      else forgotten.push(name);
    } else if (stored?.api_key) forgotten.push(name);
  }
  const names = entries.map((e) => e.account);
  const left = new Set(leftInStore.map((l) => l.profile));
  await config.update((fresh) => {
    for (const name of names) {
      if (!Object.hasOwn(fresh.profiles, name)) continue;
      if (removeProfiles) {
        delete fresh.profiles[name];
        if (fresh.current_profile === name) delete fresh.current_profile;
      } else {
        const profile = fresh.profiles[name] as { api_key?: string; key_storage?: string };
        delete profile.api_key;
        if (!left.has(name)) delete profile.key_storage;
      }
    }
  });
  return { forgotten, leftInStore };
}
