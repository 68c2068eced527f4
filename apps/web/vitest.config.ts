import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Self-contained: the root vitest.config.ts runs it as the "web" project.
// JSX is compiled by Vite's built-in transform (tsconfig `jsx: react-jsx`); no plugin needed for tests.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
  },
});
