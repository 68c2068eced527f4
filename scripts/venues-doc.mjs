// Rewrites the tables of docs/venues.md from the suites that prove them: the engine's venue scenario suite
// (what each venue supports, venue × scenario) and the lifecycle fault matrix (steps × venues). Each suite
// checks its own tables on every other run, so the page cannot drift; this is how it is brought up to date.
// One file at a time: both write the same document.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (const file of ['venue-scenarios.test.ts', 'fault-matrix.test.ts']) {
  const run = spawnSync('npx', ['vitest', 'run', `apps/server/test/engine/${file}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VENUES_DOC_WRITE: '1' },
  });
  if (run.status !== 0) {
    console.error(`\nvenues-doc: ${file} failed; docs/venues.md shows its failing cells`);
    process.exit(run.status ?? 1);
  }
}
console.log('\ndocs/venues.md is up to date');
