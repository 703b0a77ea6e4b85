import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as reset } from './reset.js';
import { register as serve } from './serve.js';

export function register(sandbox: Command, app: App): void {
  sandbox
    .addHelpText('after', examples('wsctl sandbox serve --port 8787', 'wsctl sandbox reset'));
  serve(sandbox, app);
  reset(sandbox, app);
}
