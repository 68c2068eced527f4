import { type UserConfig, defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { parseEnv } from './src/config/env-schema.ts';
import { buildIdPlugin, precompressPlugin } from './vite-plugins.ts';

export default defineConfig(({ mode }) => {
  // VITE_* values are fixed at build time: a bad one fails `vite build`/`vite dev` with every problem listed.
  parseEnv(loadEnv(mode, process.cwd(), 'VITE_'));
  return config;
});

const config = {
  // The build id and the brotli/gzip copies the server sends as they are (vite-plugins.ts).
  plugins: [react(), tailwindcss(), buildIdPlugin(), precompressPlugin()],
  build: {
    // The manifest lets scripts/report-size.mjs tell the first load from the lazy route chunks.
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Named vendor chunks keep the build report readable; both groups are shared by many screens.
        advancedChunks: {
          groups: [
            { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
            {
              name: 'vendor-forms',
              test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers|zod)[\\/]/,
            },
          ],
        },
      },
      treeshake: {
        // The contract is pure schema declarations: unused schemas may be dropped from the chunks.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
  server: {
    port: 5173,
    // In development the API runs on :3000; browser navigations stay on Vite (DESIGN §2: Accept decides).
    proxy: Object.fromEntries(
      [
        '/api',
        '/auth',
        '/admin',
        '/bots',
        '/market',
        '/portfolio',
        '/user',
        '/push-to-take-profit',
        '/webhooks',
        '/healthz',
      ].map((prefix) => [
        prefix,
        {
          target: 'http://localhost:3000',
          bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined),
        },
      ]),
    ),
  },
  preview: { port: 4173 },
} satisfies UserConfig;
