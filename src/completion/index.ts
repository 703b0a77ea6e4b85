// Completion scripts for each shell, generated from the command tree.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { commandTree } from './tree.js';
import { zshScript } from './zsh.js';

export const COMPLETION_FILES = { bash: 'wsctl.bash', zsh: '_wsctl', fish: 'wsctl.fish' } as const;

export function completionScript(program: Command, shell: keyof typeof COMPLETION_FILES): string {
  const tree = commandTree(program);
  return shell === 'bash' ? bashScript(tree) : shell === 'zsh' ? zshScript(tree) : fishScript(tree);
}
