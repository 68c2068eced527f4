// `npm start`: build whatever is missing or older than its sources, then run Kairos (role from KAIROS_ROLE, default all).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (path.basename(p) === 'node_modules' || path.basename(p) === 'dist') return;
      for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach((p) => walk(path.join(root, p)));
  return newest;
}

function builtAt(file) {
  const p = path.join(root, file);
  return fs.existsSync(p) ? fs.statSync(p).mtimeMs : -1;
}

function ensureBuilt(name, stamp, sources, workspace) {
  if (builtAt(stamp) >= newestMtime(sources)) return;
  console.log(`building ${name}…`);
  const r = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const shared = [
  'packages/contract/src',
  'packages/core/src',
  'packages/contract/package.json',
  'packages/core/package.json',
];
ensureBuilt(
  'web app',
  'apps/web/dist/index.html',
  [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'apps/web/vite-plugins.ts',
    ...shared,
  ],
  '@kairos/web',
);
ensureBuilt(
  'server',
  'apps/server/dist/.built',
  ['apps/server/src', 'apps/server/build.mjs', ...shared],
  '@kairos/server',
);

await import(path.join(root, 'apps/server/dist/server.js'));
