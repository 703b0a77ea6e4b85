// The one reader of boolean variables (cli.md §1): WSCTL_SANDBOX, WSCTL_NO_INPUT, WSCTL_DEBUG,
// WSCTL_NO_TRICKS and any added later. One file for every reader: the launcher requires it, src/
// imports it (config/resolve.ts's envFlag), and the build's stand-ins (scripts/*.cjs) require it,
// so the bundle holds copies of this same text. Required only after the launcher's version check.
'use strict';

var ON = ['1', 'true', 'yes', 'on'];
var OFF = ['', '0', 'false', 'no', 'off'];

/** true for 1/true/yes/on, false for 0/false/no/off/empty or unset, in any case, white space around ignored; undefined for anything else. */
function parseBoolean(value) {
  if (value === undefined) return false;
  var word = String(value).trim().toLowerCase();
  if (ON.indexOf(word) >= 0) return true;
  if (OFF.indexOf(word) >= 0) return false;
  return undefined;
}

/** What to say about a value that is not a boolean: the variable and the values it takes. */
function notABoolean(name, value) {
  return `Invalid ${name} '${value}': use 1, true, yes or on to turn it on, or 0, false, no, off or empty to turn it off.`;
}

// On the process, not in this module: the launcher, the entry bundle, the lazy chunks and the
// stand-ins each hold a copy of this file, and must agree.
var TRICKS = Symbol.for('wsctl.tricksOn');

/**
 * Whether the speed tricks are on: WSCTL_NO_TRICKS, read once per process. A value that is not a
 * boolean turns them off (the plain way is never wrong); a command then refuses it (exit 2).
 */
function tricksOn() {
  if (typeof globalThis[TRICKS] !== 'boolean') globalThis[TRICKS] = parseBoolean(process.env.WSCTL_NO_TRICKS) === false;
  return globalThis[TRICKS];
}

module.exports = { parseBoolean: parseBoolean, notABoolean: notABoolean, tricksOn: tricksOn };
