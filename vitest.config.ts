import { defineConfig } from 'vitest/config';

// One runner, one summary: every workspace is a project.
export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/contract', 'apps/server', 'apps/web', 'apps/web/e2e'],
  },
});
