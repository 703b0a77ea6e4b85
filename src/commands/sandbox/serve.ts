import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isLoopback } from '../../http/index.js';
import { defineVerb, flag, numeric, option, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { writeFileAtomic } from '../../config/atomic.js';
import { UsageError } from '../../errors.js';
import { inConfigDir, sandboxStatePath } from '../../sandbox/embedded.js';

export interface ServeOptions {
  /** Undefined: the port this config folder's previous server had, when it is free, else a free one. */
  port?: number;
  host: string;
  state?: string;
  detach: boolean;
}

export const serve = defineVerb({
  name: 'serve',
  summary: 'Run the sandbox as a server until interrupted; prints its URL and key first',
  flags: {
    port: option(
      '--port <n>',
      "port to listen on (0 picks a free one; default: the previous server's port when free, so logged-in profiles keep working)",
      numeric(parsePort),
    ),
    host: option('--host <address>', 'loopback address to listen on', parseHost, '127.0.0.1'),
    state: option('--state <file>', 'state file (default: the embedded sandbox state in the config dir)'),
    detach: flag(
      '--detach',
      'leave the server running in the background and exit at once; one per config folder (stop it with `wsctl sandbox stop`)',
    ),
  },
  examples: [
    'eval "$(wsctl sandbox serve --detach)" && wsctl keys list && wsctl sandbox stop',
    'wsctl sandbox serve --port 8787',
    'wsctl sandbox serve --detach --state ./ws.json && wsctl sandbox stop',
  ],
  endpoints: [],
  sample: ['sandbox', 'serve', '--detach'],
  run,
});

export function parsePort(raw: string): number {
  const port = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Invalid port '${raw}': give 0-65535.`);
  return port;
}

function parseHost(raw: string): string {
  if (!isLoopback(raw)) throw new UsageError(`The sandbox listens on loopback only; '${raw}' is not a loopback address.`);
  return raw;
}

/** Where a config folder remembers the port its last sandbox server listened on. */
export function portFile(configDir: string): string {
  return join(configDir, 'sandbox-serve-port.json');
}

/** The port the config folder's previous server had, or undefined. */
function rememberedPort(configDir: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(portFile(configDir), 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
  } catch {
    return undefined;
  }
}

/** --state's folder must exist (and be a folder): nothing is created for it. */
function stateFolder(given: string, path: string): void {
  const folder = dirname(path);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new UsageError(
      `The folder of --state '${given}' does not exist (${folder}): create it first, or give a file in an existing folder.`,
    );
  }
  if (!isFolder) throw new UsageError(`The folder of --state '${given}' is not a folder (${folder}): give a file in an existing folder.`);
}

/** The two lines cli.md names, then an export, so that `eval "$(…)"` reaches the commands after it. */
function printEnv(ctx: Ctx, url: string, key: string): void {
  ctx.term.line(`WSCTL_BASE_URL=${url}`);
  ctx.term.line(`WSCTL_API_KEY=${key}`);
  ctx.term.line('export WSCTL_BASE_URL WSCTL_API_KEY');
}

export async function run(opts: ServeOptions, ctx: Ctx): Promise<Result | void> {
  const remembered = opts.port === undefined ? rememberedPort(ctx.config.dir) : undefined;
  const port = opts.port ?? remembered ?? 0;
  const defaultState = resolve(sandboxStatePath(ctx.config.dir));
  const statePath = opts.state ? resolve(opts.state) : defaultState;
  // A folder is made for the config dir only: one for --state would be a typo's (cli.md §5).
  if (opts.state) stateFolder(opts.state, statePath);
  // Neither a server nor a seeded state file for a dry run: what it would start.
  if (ctx.dryRun) {
    const where =
      port === 0
        ? `${opts.host}, on a free port,`
        : remembered
          ? `${opts.host}:${port} (the previous server's port, if free)`
          : `${opts.host}:${port}`;
    return wouldChange(
      { host: opts.host, port, state: statePath, detach: opts.detach },
      `Would start the sandbox server on ${where} with state ${statePath}${opts.detach ? ', in the background' : ''}.`,
    );
  }
  // The sandbox loads only for the sandbox commands and --sandbox.
  const [{ FileStore, RESET_HINT }, { startSandboxServer }] = await Promise.all([
    import('../../sandbox/store.js'),
    import('../../sandbox/server.js'),
  ]);
  // `sandbox reset` rewrites the default file only: another one is the user's to fix or remove.
  const store = new FileStore(statePath, statePath === defaultState ? RESET_HINT : undefined);
  // Read (or seeded) here, so that a damaged file is reported by this command, detached or not.
  const state = await (statePath === defaultState ? inConfigDir(ctx.config.dir, () => store.read()) : store.read());
  if (opts.detach) {
    const { detach } = await import('./detached.js');
    // The background server chooses its port itself, as a foreground one does (below).
    const server = await inConfigDir(ctx.config.dir, () => detach(ctx, { port: opts.port, host: opts.host, statePath }));
    printEnv(ctx, server.url, server.key);
    ctx.term.info(
      `Sandbox running in the background on ${server.url} (pid ${server.pid}, log ${server.log}). Stop it with \`wsctl sandbox stop\`.`,
    );
    return;
  }
  const log = (line: string) => ctx.term.log(`${new Date().toISOString()} ${line}`);
  const listen = (on: number) => startSandboxServer({ store, host: opts.host, port: on, log });
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // The previous server's port is taken now: any free one will do.
    if (remembered === undefined)
      throw new UsageError(`Port ${port} on ${opts.host} is in use: choose another with --port, or --port 0 for a free one.`);
    server = await listen(0);
  }
  // Remembered for the next server of this config folder: profiles logged in to this URL keep working after a restart.
  const listening = Number(new URL(server.url).port);
  if (listening !== remembered) {
    try {
      ctx.config.secureDir();
      writeFileAtomic(portFile(ctx.config.dir), `${JSON.stringify({ port: listening })}\n`);
    } catch (error) {
      ctx.term.warn(`Could not remember the port in ${portFile(ctx.config.dir)}: ${(error as Error).message}`);
    }
  }
  printEnv(ctx, server.url, state.bootstrap_key);
  ctx.term.info(`Sandbox listening on ${server.url} (state ${statePath}). Ctrl-C stops it.`);
  await new Promise<void>((done) => {
    if (ctx.signal.aborted) return done();
    ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  await server.close();
}
