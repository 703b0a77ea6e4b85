import type { ConfigData } from '../../config/index.js';
import { UsageError } from '../../errors.js';

export function requireProfile(data: ConfigData, name: string): void {
  if (Object.hasOwn(data.profiles, name)) return;
  const known = Object.keys(data.profiles);
  const list = known.length ? ` Profiles: ${known.join(', ')}.` : ' There are no profiles yet.';
  throw new UsageError(`No profile '${name}'.${list} Create one with \`wsctl auth login --profile ${name}\`.`);
}
