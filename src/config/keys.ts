// Where a profile's key lives (cli.md §2): the OS credential store, else config.json with one
// warning; --insecure-storage picks the file on purpose. config.json records only that the key
// is in the store, so listing profiles never touches the store.
import { AuthError } from '../errors.js';
import { profileOf, type ConfigStore } from './index.js';
import { KeyringUnavailable, openCredentialStore, type CredentialStore } from './keyring.js';

export type KeyStorage = 'keyring' | 'file';

export interface StoredKey {
  key?: string;
  storage: KeyStorage | null;
}

// One handle per config folder: each folder has its own entries (service `wsctl:<folder>`).
const opened = new Map<string, Promise<CredentialStore>>();

function credentialStore(config: ConfigStore): Promise<CredentialStore> {
  let store = opened.get(config.dir);
  if (!store) opened.set(config.dir, (store = openCredentialStore(config.dir)));
  return store;
}

/** The profile's stored key and where it lives. A key in a store that cannot be reached is exit 4. */
export async function readStoredKey(config: ConfigStore, profile: string): Promise<StoredKey> {
  const stored = profileOf(config.read(), profile);
  if (stored?.api_key) return { key: stored.api_key, storage: 'file' };
  if (stored?.key_storage !== 'keyring') return { storage: null };
  try {
    const key = await (await credentialStore(config)).get(profile);
    if (!key) {
      throw new AuthError(`Profile '${profile}' keeps its key in the credential store, but the store has no entry for it. Run \`wsctl auth login --profile ${profile}\`.`);
    }
    return { key, storage: 'keyring' };
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    throw new AuthError(
      `The key of profile '${profile}' is in the credential store, but ${error.message}. Unlock the store, or run \`wsctl auth login --profile ${profile} --insecure-storage\`.`,
    );
  }
}

/** Stores the key with its base URL as the profile; returns where it went. */
export async function storeKey(
  config: ConfigStore,
  profile: string,
  values: { baseUrl: string; key: string; insecure: boolean; makeCurrent?: boolean },
  warn: (message: string) => void,
): Promise<KeyStorage> {
  let storage: KeyStorage = 'file';
  if (!values.insecure) {
    try {
      await (await credentialStore(config)).set(profile, values.key);
      storage = 'keyring';
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error;
      warn(`No credential store: ${error.message}. The key is stored in ${config.path} (mode 0600) instead; --insecure-storage chooses the file without this warning.`);
    }
  }
  let wasInStore = false;
  await config.update((data) => {
    const { api_key: _oldKey, key_storage: oldStorage, ...rest } = profileOf(data, profile) ?? {};
    wasInStore = oldStorage === 'keyring';
    data.profiles[profile] = storage === 'keyring' ? { ...rest, base_url: values.baseUrl, key_storage: 'keyring' } : { ...rest, base_url: values.baseUrl, api_key: values.key };
    if (values.makeCurrent) data.current_profile ??= profile;
  });
  // A key that moved from the store to the file leaves no copy behind; otherwise the store is not touched.
  if (storage === 'file' && wasInStore) await forgetInStore(config, profile).catch(() => undefined);
  return storage;
}

/** Deletes the profile's entry in the store; false when there was none. Throws KeyringUnavailable. */
export async function forgetInStore(config: ConfigStore, profile: string): Promise<boolean> {
  return (await credentialStore(config)).delete(profile);
}

/** Forgets the keys of these profiles, in the store and in the file; names whose store entry was left behind. */
export async function forgetKeys(config: ConfigStore, profiles: string[], removeProfiles: boolean): Promise<{ forgotten: string[]; leftInStore: string[]; reason?: string }> {
  const data = config.read();
  const forgotten: string[] = [];
  const leftInStore: string[] = [];
  let reason: string | undefined;
  for (const name of profiles) {
    const stored = profileOf(data, name);
    if (stored?.api_key) forgotten.push(name);
    if (stored?.key_storage !== 'keyring') continue;
    try {
      await forgetInStore(config, name);
      if (!forgotten.includes(name)) forgotten.push(name);
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error;
      leftInStore.push(name);
      reason = error.message;
    }
  }
  await config.update((fresh) => {
    for (const name of profiles) {
      if (!Object.hasOwn(fresh.profiles, name)) continue;
      if (removeProfiles) {
        delete fresh.profiles[name];
        if (fresh.current_profile === name) delete fresh.current_profile;
      } else {
        const profile = fresh.profiles[name] as { api_key?: string; key_storage?: string };
        delete profile.api_key;
        if (!leftInStore.includes(name)) delete profile.key_storage;
      }
    }
  });
  return { forgotten, leftInStore, reason };
}
