import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoss, type SlowJob } from '../../src/jobs/boss';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * A job that keeps running is told, with its queue, while it runs and when it ends: a stuck minute job (or the
 * one a graceful stop waits 20 s for) shows in the logs instead of silently holding its queue.
 */
let db: TestDatabase;
let boss: PgBoss;
const reports: SlowJob[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  boss = createBoss(db.url, 'consumer', () => {}, { onSlowJob: (job) => reports.push(job), slowJobMs: 300 });
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true }).catch(() => {});
  await db.drop();
});

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a slow job', () => {
  it('is reported with its queue while it runs and when it ends; a quick one is not', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await boss.createQueue('test.slow');
    await boss.createQueue('test.quick');
    await boss.work('test.slow', { pollingIntervalSeconds: 0.5 }, () => held);
    await boss.work('test.quick', async () => {});
    const quick = await boss.send('test.quick', {});
    const slow = await boss.send('test.slow', {});

    await until('the running report', () => reports.length > 0, 10_000);
    expect(reports).toEqual([{ queue: 'test.slow', runningMs: expect.any(Number), ended: false }]);
    expect(reports[0]!.runningMs).toBeGreaterThanOrEqual(300);

    release();
    await until('the end report', () => reports.length > 1, 5_000);
    expect(reports[1]).toEqual({ queue: 'test.slow', runningMs: expect.any(Number), ended: true });
    await until(
      'both jobs completed',
      async () =>
        (await boss.getJobById('test.slow', slow!))?.state === 'completed' &&
        (await boss.getJobById('test.quick', quick!))?.state === 'completed',
      10_000,
    );
    expect(reports.filter((r) => r.queue === 'test.quick')).toEqual([]);
  });
});
