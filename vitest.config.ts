import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner, one summary: every workspace is a project.
export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/contract', 'apps/server', 'apps/web', 'apps/web/e2e'],
    // Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's) that is one file at a
    // time, and most of a file's time is spent waiting on PostgreSQL, a server or a timer. Two files at once
    // cut the unit and API projects' time by about a third there; the browser project keeps its files one at
    // a time (e2e/vitest.config.ts: fileParallelism false) and runs after them, alone.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
