import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as uploadAvatar } from './upload-avatar.js';
import { register as versions } from './versions.js';

export function register(persona: Command, app: App): void {
  persona
    .addHelpText('after', examples('wsctl persona versions persona_demo', 'wsctl persona upload-avatar ./ada.png'));
  versions(persona, app);
  uploadAvatar(persona, app);
}
