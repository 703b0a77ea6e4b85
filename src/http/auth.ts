// The key a request is sent with, read when the request is sent (gh's AddAuthTokenHeader,
// STYLE 19): what runs before the client (the target, a confirmation, the agent policy) holds no
// secret, and a --dry-run or a declined confirmation reads none, from no store.

export interface Credential {
  /** Whether a key is to be sent: what --dry-run shows as `Bearer [redacted]` without reading it. */
  readonly present: boolean;
  /** The key, read from where it lives the first time it is asked for. */
  read(): Promise<string | undefined>;
}

/** No key is sent. */
export const NO_CREDENTIAL: Credential = { present: false, read: async () => undefined };

/** A key the command was given (auth login's new key, the embedded sandbox's). */
export function givenKey(key: string): Credential {
  return { present: true, read: async () => key };
}

/** A key read from its place at most once, however many requests ask. */
export function readOnce(read: () => Promise<string | undefined>): Credential {
  let reading: Promise<string | undefined> | undefined;
  return { present: true, read: () => (reading ??= read()) };
}
