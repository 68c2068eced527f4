import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Sources the built web app depends on (as in scripts/start.mjs). */
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'packages/core/src',
  'packages/contract/package.json',
  'packages/core/package.json',
];

function newestSourceMtime(root: string): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      if (['node_modules', 'dist'].includes(path.basename(p))) return;
      for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) walk(path.join(root, source));
  return newest;
}

function builtAt(root: string): number {
  const index = path.join(root, 'apps/web/dist/index.html');
  return fs.existsSync(index) ? fs.statSync(index).mtimeMs : -1;
}

/** A directory lock, so two suites started at once do not build into the same dist together. */
async function withLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 180_000) fs.rmSync(lockDir, { recursive: true, force: true }); // left by a killed run
      if (Date.now() > deadline) throw new Error(`could not take the build lock ${lockDir}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds apps/web when dist is missing or older than its sources, then runs `andThen` (start the
 * server, copy the assets) before any other suite may rebuild. Returns whether it built.
 */
export async function withFreshWebBuild(root: string, andThen: () => Promise<void>): Promise<boolean> {
  const lockDir = path.join(root, 'node_modules', '.cache', 'kairos', 'web-build.lock');
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  return withLock(lockDir, async () => {
    const built = buildIfStale(root);
    await andThen();
    return built;
  });
}

/** Builds apps/web when dist is missing or older than its sources; returns whether it built. */
function buildIfStale(root: string): boolean {
  if (builtAt(root) >= newestSourceMtime(root)) return false;
  // `vite build` alone: the size budget of `npm run build` is checked there, not by the browser tests.
  // A production build, as `npm start` serves it (vitest's NODE_ENV=test would give React's development build).
  const result = spawnSync('npx', ['vite', 'build'], {
    cwd: path.join(root, 'apps/web'),
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`web build failed:\n${result.stdout}\n${result.stderr}`);
  return true;
}
