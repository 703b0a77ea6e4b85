// After each test file, what it left (temporary folders, servers): the workers run many files
// each, with the test helpers loaded once (vitest.config.ts: isolate off).
import { afterAll } from 'vitest';
import { runCleanups } from './helpers.js';

afterAll(runCleanups);
