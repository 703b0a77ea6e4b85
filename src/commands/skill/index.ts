import { defineNoun } from '../../verbs/declare.js';
import { install } from './install.js';
import { show } from './show.js';
import { uninstall } from './uninstall.js';

export const skill = defineNoun({
  name: 'skill',
  summary: "Print wsctl's agent skill (SKILL.md), or install it for Claude Code or Codex",
  verbs: [install, uninstall],
  self: show,
});
