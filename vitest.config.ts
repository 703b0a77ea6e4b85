import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // WSCTL_NO_TRICKS=1 reaches every process a test starts (see the file).
    setupFiles: ['test/no-tricks-setup.ts'],
    // In-process runs must never reach a developer's own keyring: tests that want a Secret
    // Service start their own in dbus-run-session (test/config/keyring.test.ts).
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/wsctl-tests' },
  },
});
