// Node's modules that only some paths need, loaded when first called rather than imported: an
// import loads its module at every command's start (node:os 0.5 ms, node:timers/promises 0.3 ms,
// Node 24), while a command with HOME set never asks for the home folder and only a lock held by
// another process, a follow or `sandbox stop` waits.

/** The user's home folder (os.homedir). */
export const homedir = (): string => process.getBuiltinModule('node:os').homedir();

/** The folder for temporary files (os.tmpdir). */
export const tmpdir = (): string => process.getBuiltinModule('node:os').tmpdir();

/** Settles after ms, or rejects when the signal aborts (timers/promises' setTimeout). */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal });
