// The kinds of ids wsctl remembers (cli.md §10), with where a person finds each: the words
// `wsctl ids` uses, and the hint a missing id's usage error gives.

export const ID_KINDS = ['conversation', 'persona', 'app', 'connection', 'account'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Where ids of a kind come from, said when one is missing and none can be chosen. */
export const WHERE_FROM: Record<IdKind, string> = {
  conversation: '`wsctl caps` shows conversation ids (its text numbers), and `wsctl ids conversation` lists those seen before',
  persona:
    '`wsctl convo show <conversation_id>` shows persona ids (each message names its persona), and `wsctl ids persona` lists those seen before',
  app: '`wsctl caps` shows app slugs (its connected apps), and `wsctl ids app` lists those seen before',
  connection:
    "the service lists no connections: `wsctl ids connection` lists those given to `wsctl conn set-permission` before, or take the id from the app's connection settings",
  account: '`wsctl caps` shows account ids (its connected apps), and `wsctl ids account` lists those seen before',
};

/**
 * An id that completion may offer and the list may show as typed: nothing a shell or terminal reads
 * specially, and no leading `-`, which the command it completes would read as an option.
 */
export const OFFERABLE_ID = /^[A-Za-z0-9._:@+][A-Za-z0-9._:@+-]*$/;

export function isIdKind(word: string): word is IdKind {
  return (ID_KINDS as readonly string[]).includes(word);
}
