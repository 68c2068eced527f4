import { createRequire } from 'node:module';
import path from 'node:path';
import { type UserConfig, defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { parseEnv } from './src/config/env-schema.ts';
import { earlyReadSettings, firstScreenReads } from './src/app/early-reads.ts';
import { EARLY_READS_GLOBAL } from './src/lib/early-reads.ts';
import { buildIdPlugin, moduleSets, precompressPlugin, screenPreloadPlugin } from './vite-plugins.ts';

export default defineConfig(({ command, mode }) => {
  // VITE_* values are fixed at build time: a bad one fails `vite build`/`vite dev` with every problem listed.
  const env = parseEnv(loadEnv(mode, process.cwd(), 'VITE_'));
  return {
    ...config,
    // React Router 7's package exports only its development build (remix-run/react-router#12532, #14102): its
    // warnings and checks ran in production, ~300 ms of the Dashboard's first load at 4× CPU (issue 21). A build
    // takes the production build beside it; `vite dev` keeps the warnings.
    resolve: command === 'build' ? { alias: REACT_ROUTER_PRODUCTION } : undefined,
    // The screens' preloads and early reads, the build id (of the final index.html) and the brotli/gzip copies
    // the server sends as they are (vite-plugins.ts).
    plugins: [
      react(),
      tailwindcss(),
      preloadedScreens(env.VITE_API_URL),
      buildIdPlugin(),
      precompressPlugin(),
      modules.plugin,
    ],
  };
});

// By file path: the package's exports do not name its production build.
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist',
  'production',
);
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

/**
 * The Dashboard, the first screen of a signed-in visit, comes in one chunk with its layout and the contract's
 * schemas it reads answers with (issue 21: over HTTP/1.1 its 30-odd chunks queued six at a time, and the largest
 * paint waited on the last): every module those import that neither the first load nor a public page (Home, 404)
 * has. The other signed-in screens load it too, as they need most of it; Login and Register as well, which lead to
 * the Dashboard. What those screens share beyond it goes in two chunks instead of dozens of 1 KB ones: the data
 * layer (the features' API calls, the query hooks) and the UI kit (components, lib). Left out of these: what the
 * first load already has, what a visitor's screens import (Home stays small), the chart library with the code that
 * imports it (only a chart on screen loads it), and the features' parts — some build zod schemas as they load (the
 * bot form's), which a screen that does not show them should not pay for.
 */
const SHARED_DATA = new RegExp(
  String.raw`[\\/](packages[\\/](contract|core)[\\/]src[\\/]|apps[\\/]web[\\/]src[\\/](features[\\/][^\\/]+[\\/]api|lib[\\/]api-client|config)[\\/.]|node_modules[\\/]@tanstack[\\/])`,
);
const SHARED_UI = new RegExp(String.raw`[\\/]apps[\\/]web[\\/]src[\\/](components|lib)[\\/]`);
const CHART_CODE = /(chart-theme|time-series-chart|candle-chart)\.tsx?$/;
const modules = moduleSets(
  {
    dashboard:
      /[\\/]src[\\/](app[\\/]layout[\\/]app-layout|app[\\/]routes[\\/]dashboard|features[\\/]dashboard[\\/]api[\\/]get-dashboard)\.tsx?$/,
    publicPage: /[\\/]src[\\/]app[\\/]routes[\\/](home|not-found)\.tsx$/,
    visitor:
      /[\\/]src[\\/]app[\\/]routes[\\/](home|login|register|forgot-password|reset-password|not-found)\.tsx$/,
  },
  // Screens import the contract through its index: a walk follows only the names imported.
  { '@kairos/contract': /[\\/]packages[\\/]contract[\\/]src[\\/]index\.ts$/ },
);
const sharedBySignedIn = (pattern: RegExp) => (id: string) =>
  pattern.test(id) && !CHART_CODE.test(id) && !modules.firstLoad(id) && !modules.reachedFrom('visitor', id);

/**
 * The screens index.html starts loading with the first load (issue 21): Home and Login for visitors, the
 * Dashboard (where Login leads) with a stored session. The modules are the route's lazy imports (app/routes.ts).
 */
const preloadedScreens = (api: string) =>
  screenPreloadPlugin(
    {
      '/': { modules: ['src/app/routes/home.tsx'] },
      '/login': { modules: ['src/app/routes/login.tsx'] },
      '/dashboard': {
        modules: [
          'src/app/layout/app-layout.tsx',
          'src/app/routes/dashboard.tsx',
          'src/i18n/locales/en-US.portfolio.ts',
        ],
        signedIn: true,
      },
    },
    'auth_token',
    {
      // And the signed-in Dashboard's reads (app/early-reads.ts; early-reads.test.ts checks these settings).
      source: firstScreenReads.toString(),
      settings: earlyReadSettings(api),
      timeZoneKey: 'timezone',
      global: EARLY_READS_GLOBAL,
    },
    // Made for signed-in screens: Home must not load them (a first-load module caught in a group would).
    ['dashboard-screen', 'shared-data', 'shared-ui'],
  );

const config = {
  build: {
    // The manifest lets scripts/report-size.mjs tell the first load from the lazy route chunks.
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Named vendor chunks keep the build report readable (both shared by many screens); then the signed-in
        // screens' shared code (above). Groups take only the modules they match, not what those import.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
            {
              name: 'dashboard-screen',
              test: (id: string) =>
                modules.reachedFrom('dashboard', id) &&
                !CHART_CODE.test(id) &&
                !modules.firstLoad(id) &&
                !modules.reachedFrom('publicPage', id),
            },
            // The form library apart: the Dashboard shows no form, and need not load one (issue 21).
            {
              name: 'vendor-forms',
              test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]/,
            },
            {
              name: 'shared-data',
              test: sharedBySignedIn(SHARED_DATA),
              minShareCount: 2,
            },
            {
              name: 'shared-ui',
              test: sharedBySignedIn(SHARED_UI),
              minShareCount: 2,
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
