import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as show } from './show.js';

export function register(convo: Command, app: App): void {
  convo
    .addHelpText('after', examples('wsctl convo show conv_demo', 'wsctl convo show conv_demo --markdown > offsite.md'));
  show(convo, app);
}
