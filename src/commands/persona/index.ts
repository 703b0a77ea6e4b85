import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as uploadAvatar } from './upload-avatar.js';
import { register as versions } from './versions.js';

export function register(program: Command, app: App): void {
  const persona = program
    .command('persona')
    .description('Published versions and avatars of personas')
    .addHelpText('after', examples('wsctl persona versions persona_demo', 'wsctl persona upload-avatar ./ada.png'));
  versions(persona, app);
  uploadAvatar(persona, app);
}
