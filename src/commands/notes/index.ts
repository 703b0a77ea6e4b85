import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as importPage } from './import.js';

export function register(program: Command, app: App): void {
  const notes = program
    .command('notes')
    .description('Import pages from the connected note-taking app')
    .addHelpText('after', examples('wsctl notes import page_demo --to projects/offsite'));
  importPage(notes, app);
}
