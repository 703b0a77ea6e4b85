import { defineNoun } from '../../verbs/declare.js';
import { importPage } from './import.js';

export const notes = defineNoun({
  name: 'notes',
  summary: 'Import pages from the connected note-taking app',
  examples: ['wsctl notes import page_demo --to projects/offsite', 'wsctl notes import page_roadmap --title Roadmap'],
  verbs: [importPage],
});
