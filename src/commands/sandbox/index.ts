import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as reset } from './reset.js';
import { register as serve } from './serve.js';
import { register as stop } from './stop.js';

export function register(sandbox: Command, app: App): void {
  sandbox
    .addHelpText('after', examples('eval "$(wsctl sandbox serve --detach)"', 'wsctl sandbox stop', 'wsctl sandbox reset'));
  serve(sandbox, app);
  stop(sandbox, app);
  reset(sandbox, app);
}
