import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded-postgres';
import { spawnServer, waitForHealthy } from '../support/process';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-proc-'));
fs.chmodSync(dataDir, 0o755);

afterAll(() => {
  // A failed test may leave the cluster running: free it before removing its files.
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('refuses a bad PORT with one clear line and a non-zero exit', async () => {
    const server = spawnServer({ PORT: 'abc', KAIROS_ROLE: 'everything' });
    const code = await server.exited;
    expect(code).not.toBe(0);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
    expect(lines[0]).toContain('KAIROS_ROLE');
  });

  it('runs on embedded PostgreSQL, stops cleanly, keeps its data and survives kill -9', async () => {
    const env = { DATABASE_URL: undefined, KAIROS_DATA_DIR: dataDir, LOG_LEVEL: 'info' };

    // First start: a new cluster.
    let port = await freePort();
    const first = spawnServer({ ...env, PORT: String(port) });
    const health = await waitForHealthy(port, 60_000);
    expect(health).toMatchObject({ status: 'ok', role: 'all' });
    expect(first.output()).toContain('initialising PostgreSQL cluster');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    // Second start: the same cluster, not a new one.
    port = await freePort();
    const second = spawnServer({ ...env, PORT: String(port) });
    // The HTTP side answers first; the worker's heartbeat follows within moments.
    const again = await waitForHealthy(port, 60_000, (h) => (h.worker as { workers: number }).workers >= 1);
    expect((again.worker as { ageSeconds: number }).ageSeconds).toBeLessThan(60);
    expect(second.output()).not.toContain('initialising PostgreSQL cluster');

    // kill -9 leaves an orphaned postmaster holding the cluster; the next start must recover.
    second.child.kill('SIGKILL');
    await second.exited;
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);
    port = await freePort();
    const third = spawnServer({ ...env, PORT: String(port) });
    await waitForHealthy(port, 60_000);
    expect(third.output()).toContain('orphaned PostgreSQL');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 240_000);
});
