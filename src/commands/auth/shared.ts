import { badKeyCharacters } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';

/** A key is one printable ASCII token: anything else is a copy-paste accident. */
export function checkKeyShape(key: string): string {
  if (key === '') throw new UsageError('The API key is empty.');
  const bad = badKeyCharacters(key);
  if (bad) throw new UsageError(`The API key contains ${bad}; paste the key alone.`);
  if (key.length < 8 || key.length > 512) throw new UsageError('That does not look like an API key (wrong length).');
  return key;
}
