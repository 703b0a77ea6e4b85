// `wsctl help …`: a topic, a command's help (left to commander), or exit 2 with a suggestion.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { visibleSubcommands } from '../common/visible.js';
import { topicText } from './render.js';
import { closest, flagCandidates, type Candidate } from './suggest.js';
import { findTopic, TOPICS } from './topics.js';

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** Each subcommand by its name and its aliases, suggested by its name: `lst` is close to `list` and `ls`, one command. */
function commandCandidates(command: Command): Candidate[] {
  return visibleSubcommands(command).flatMap((c) => [c.name(), ...c.aliases()].map((w) => ({ word: w, suggest: c.name() })));
}

/** The suggestion for a word that is not a subcommand of `command`: a close command, or a flag typed without its dashes. */
export function suggestCommand(command: Command, word: string): string | undefined {
  const flags = command.parent ? [] : [...flagCandidates(command.options.map((o) => o.long ?? '')), { word: 'help', suggest: 'help' }];
  return closest(word, commandCandidates(command)) ?? closest(word, flags);
}

const topicList = () => TOPICS.map((t) => t.name).join(', ');

/**
 * The text of a help topic; undefined when the words name a command (its help is commander's);
 * a UsageError when they name neither.
 */
export function answerHelp(program: Command, words: string[], width?: number): string | undefined {
  const [first = ''] = words;
  if (!subcommand(program, first)) {
    const topic = findTopic(first);
    if (topic && words.length === 1) return topicText(topic, width);
    if (topic) throw new UsageError(`The help topic '${first}' takes no further words. Run \`wsctl help ${first}\`.`);
    const topics = TOPICS.map((t) => ({ word: t.name, suggest: t.name }));
    const guess = closest(first, topics) ?? closest(first, commandCandidates(program));
    const hint = guess
      ? `Did you mean '${guess
          .split("' or '")
          .map((g) => `wsctl help ${g}`)
          .join("' or '")}'?`
      : `Help topics: ${topicList()}; \`wsctl help\` lists the commands.`;
    throw new UsageError(`unknown help topic or command '${first}'. ${hint}`);
  }
  let command = program;
  const path = ['wsctl'];
  for (const word of words) {
    // A command without subcommands: the words after it are its arguments.
    if (visibleSubcommands(command).length === 0) break;
    const sub = subcommand(command, word);
    if (!sub) {
      const guess = suggestCommand(command, word);
      throw new UsageError(
        `unknown command '${word}' for '${path.join(' ')}'.${guess ? ` Did you mean '${guess}'?` : ''} Run \`${path.join(' ')} --help\` for usage.`,
      );
    }
    command = sub;
    path.push(sub.name());
  }
  return undefined;
}
