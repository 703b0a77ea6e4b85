import { UsageError } from '../../errors.js';

/** A key is one printable token: whitespace or control characters mean a copy-paste accident. */
export function checkKeyShape(key: string): string {
  if (key === '') throw new UsageError('The API key is empty.');
  if (/[\s\x00-\x1f\x7f]/.test(key)) throw new UsageError('The API key contains whitespace or control characters; paste the key alone.');
  if (key.length < 8 || key.length > 512) throw new UsageError('That does not look like an API key (wrong length).');
  return key;
}
