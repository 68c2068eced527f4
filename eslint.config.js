import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const SERVER = 'apps/server/src';
const NO_DRIZZLE = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'drizzle and SQL live in *-repo.ts files (and db/)',
};
/**
 * Each server layer's forbidden imports, for its repos (which may use drizzle) and its other files (which
 * may not). One block per file set: a later flat-config block would replace an earlier rule, not add to it.
 */
function serverLayers() {
  const layers = [
    {
      dir: 'engine',
      patterns: [
        { group: ['**/modules/**', '**/routes/**'], message: 'the engine never imports modules or routes' },
      ],
    },
    {
      dir: 'exchange',
      patterns: [
        {
          group: ['**/engine/**', '**/modules/**', '**/routes/**'],
          message: 'the exchange layer never imports the engine, modules or routes',
        },
      ],
    },
    {
      dir: 'routes',
      patterns: [
        { group: ['**/db/**', 'pg'], message: 'routes never touch the database' },
        { group: ['**/engine/**'], message: 'routes call modules, which call the engine' },
      ],
    },
    { dir: 'modules', patterns: [{ group: ['**/routes/**'], message: 'modules never import routes' }] },
  ];
  // A repo's prepared statements may sit beside it (trades-repo-statements.ts).
  const repos = [
    `${SERVER}/**/*-repo.ts`,
    `${SERVER}/**/*-repo-statements.ts`,
    `${SERVER}/db/**`,
    `${SERVER}/exchange/paper/paper-ledger-pg.ts`,
  ];
  const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  return [
    { files: [`${SERVER}/**/*.ts`], ignores: repos, rules: rule([NO_DRIZZLE]) },
    ...layers.flatMap(({ dir, patterns }) => [
      { files: [`${SERVER}/${dir}/**/*.ts`], ignores: repos, rules: rule([...patterns, NO_DRIZZLE]) },
      { files: repos.map((r) => r.replace(`${SERVER}/**`, `${SERVER}/${dir}/**`)), rules: rule(patterns) },
    ]),
  ];
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/migrations/**', 'screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { import: importPlugin },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'import/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
  },
  // Layering: pure packages never reach into apps; core stays free of I/O.
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@kairos/server', '@kairos/web'],
              message: 'packages must not import apps',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@kairos/server', '@kairos/web'],
              message: 'packages must not import apps',
            },
            { group: ['node:*', 'pg', 'fastify', 'ccxt', 'drizzle-orm*'], message: 'core is pure: no I/O' },
          ],
        },
      ],
    },
  },
  // The server's one direction: routes → modules → engine → exchange → db; drizzle only in repos.
  ...serverLayers(),
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@kairos/server', '**/apps/server/**'],
              message: 'the web talks to the server over HTTP only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**', '@/app/*'], message: 'features must not import the app layer' },
            { group: ['@kairos/server'], message: 'the web talks to the server over HTTP only' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{components,lib,config,i18n}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**', '@/features/*', '@/app/*'],
              message: 'shared code must not import features or the app',
            },
          ],
        },
      ],
    },
  },
);
