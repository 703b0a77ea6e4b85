// What a verb returns and how its action is run: the glue between commander and run(opts, ctx).
import type { Command } from 'commander';
import type { Ctx, Globals } from './context.js';
import { UsageError } from './errors.js';
import type { Terminal } from './terminal/index.js';

export interface Result {
  /** The document printed with --json: the service's body unless the command says otherwise. */
  json: unknown;
  /** Human output, on a TTY or piped. */
  human(out: Terminal): void | Promise<void>;
  /** A 2xx body that reports failure: the output is printed all the same, then exit 1. */
  failure?: string;
  /** A non-zero exit after printing (auth status with no valid key). */
  exitCode?: number;
  exitMessage?: string;
  /** Said with the error when the output cannot be written (a secret shown once, lost). */
  lost?: string;
  /** Work done once the output is printed (saving a new key, so that its secret is never lost). */
  after?: () => Promise<void>;
}

/** A verb's work: typed options in, data (or nothing) out. */
export type Verb<O> = (opts: O, ctx: Ctx) => Promise<Result | void>;

export interface App {
  /**
   * Runs a verb with the options its action built from argv: builds the context from the
   * command's global options, calls `verb(opts, ctx)` and prints what it returns. Tests record
   * `opts` here without running anything (test/commands/argv.test.ts).
   */
  run<O>(command: Command, opts: O, verb: Verb<O>): Promise<void>;
  /** Loads every command of the tree (only the invoked one is loaded at start-up). */
  loadAll(program: Command): Promise<void>;
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** Identifiers go into paths: an empty one is a usage error, everything else gets encoded. */
export function requireId(value: string, name: string): string {
  if (value.trim() === '') throw new UsageError(`${name} must not be empty.`);
  return value;
}

/** A 2xx body that reports failure: a JSON object with `success: false`. */
export function saysFailure(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { success?: unknown }).success === false;
}

/** "a/b/c" → ["a", "b", "c"], for target paths; empty, "." and ".." segments are refused. */
export function splitPath(value: string, flag: string): string[] {
  const parts = value.split('/').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => p === '.' || p === '..')) {
    throw new UsageError(`Invalid ${flag} '${value}': give folder names separated by '/', without '.' or '..'.`);
  }
  return parts;
}

export type { Ctx, Globals };
