// Text wrapped between words (cli.md §3): errors, warnings and questions on a terminal, and the
// help's own paragraphs. Words are never cut, so an id, a URL or a path stays whole (on a line of
// its own when longer than the line), and a `backquoted command` is one word, spaces and all,
// unless it is longer than a line.

/** The words of text: runs of non-spaces, a backquoted span (with what touches it) counted as one. */
function words(text: string): string[] {
  return text.match(/(?:`[^`]*`|[^\s`]+|`)+/g) ?? [];
}

/**
 * Each paragraph (line) of text on lines of at most width columns, broken only between words.
 * `measure` gives the columns a word takes (display width on a terminal; length by default).
 */
export function wrapWords(text: string, width: number, measure: (s: string) => number = (s) => s.length): string {
  return text
    .split('\n')
    .map((paragraph) => {
      // An indented line (a list under a message) keeps its indent on every line it becomes.
      const indent = /^ */.exec(paragraph)![0];
      const room = Math.max(1, width - indent.length);
      const lines: string[] = [];
      let line = '';
      let used = 0;
      const queue = words(paragraph);
      for (let word = queue.shift(); word !== undefined; word = queue.shift()) {
        const size = measure(word);
        // A `command` longer than a line breaks at its own spaces (a path in it stays whole).
        if (size > room && word.includes(' ')) {
          queue.unshift(...word.split(' ').filter(Boolean));
          continue;
        }
        if (line && used + 1 + size > room) {
          lines.push(line);
          line = '';
          used = 0;
        }
        line = line ? `${line} ${word}` : word;
        used += (used ? 1 : 0) + size;
      }
      lines.push(line);
      return lines.map((l) => indent + l).join('\n');
    })
    .join('\n');
}
