import { defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';
import { findPin, pinPath } from '../../config/pin.js';
import { UsageError } from '../../errors.js';
import { rmSync, lstatSync } from 'node:fs';

export const unpin = defineVerb({
  name: 'unpin',
  summary: "Remove this folder's pin (.wsctl-profile); a pin in a folder above still applies",
  examples: ['wsctl profile unpin', 'wsctl profile unpin --json'],
  endpoints: [],
  sample: ['profile', 'unpin'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result> {
  const cwd = ctx.cwd ?? process.cwd();
  const path = pinPath(cwd);
  const here = exists(path);
  if (ctx.dryRun)
    return wouldChange(
      { removed: here, pin_file: path },
      here ? `Would remove ${path}.` : `No pin in this folder (${path}): nothing to remove.`,
    );
  if (here) {
    try {
      rmSync(path);
    } catch (error) {
      throw new UsageError(`Cannot remove ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  }
  // A pin further up still chooses the profile here: say which, without judging what it holds.
  let above: string | undefined;
  try {
    above = findPin(cwd)?.path;
  } catch {
    above = undefined;
  }
  return {
    json: { removed: here, pin_file: path },
    human(out) {
      out.done(here ? `Removed ${path}.` : `No pin in this folder (${path}): nothing to remove.`);
      if (above) out.info(`The pin ${above} still applies here.`);
    },
  };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
