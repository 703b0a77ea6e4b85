// The one reader of boolean variables (cli.md §1): WSCTL_SANDBOX, WSCTL_NO_INPUT, WSCTL_DEBUG
// and any added later. src/ imports it (config/resolve.ts's envFlag, cli/report.ts).
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

module.exports = { parseBoolean: parseBoolean, notABoolean: notABoolean };
