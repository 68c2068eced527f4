// `npm test`: every workspace's tests in one Vitest run (unit, API on real PostgreSQL, browser), then one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = path.join(root, 'node_modules', '.cache', 'kairos', 'test-results.json');
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.rmSync(resultsFile, { force: true });

// Lint and typecheck are part of the test command: CI fails when either does.
for (const script of ['lint', 'typecheck']) {
  const check = spawnSync('npm', ['run', script, '--silent'], { cwd: root, stdio: 'inherit' });
  if (check.status !== 0) {
    console.error(`\nnpm test: \`npm run ${script}\` failed`);
    process.exit(check.status ?? 1);
  }
}

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${resultsFile}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);

if (fs.existsSync(resultsFile)) {
  const r = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(
    `\nTests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
}
process.exit(run.status ?? 1);
