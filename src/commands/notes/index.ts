import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as importPage } from './import.js';

export function register(notes: Command, app: App): void {
  notes
    .addHelpText('after', examples('wsctl notes import page_demo --to projects/offsite', 'wsctl notes import page_roadmap --title Roadmap'));
  importPage(notes, app);
}
