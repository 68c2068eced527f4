import pg from 'pg';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createBoss } from '../../src/jobs/boss';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * A scheduled job that finishes while PostgreSQL is away (a restart, a failover) must not take the process
 * down. pg-boss 10 records a job's end without awaiting it (`complete`/`fail`, timgit/pg-boss#577): the
 * rejected write was an unhandled rejection, and Node ends the process on one — the API and the worker with
 * it. Seen with test/faults/postgres-restart.test.ts when a minute job ran across the restart (exit 1,
 * "the database system is shutting down" from Manager.fail).
 */
const QUEUE = 'test.outage';

let db: TestDatabase;
let admin: pg.Client;
let boss: PgBoss | undefined;
const queueErrors: Error[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  db = await createTestDatabase();
  const url = new URL(inject('databaseUrl'));
  url.pathname = '/postgres';
  admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`).catch(() => {});
  await boss?.stop({ graceful: false, wait: true }).catch(() => {});
  await admin.end();
  await db.drop();
});

/** The database stops taking connections and the queue's open ones are cut, as in a restart. */
async function databaseAway() {
  await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`,
    [db.name, 'kairos-consumer'],
  );
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a job ending while the database is away', () => {
  it('is reported as a queue error, not an unhandled rejection, and the queue works again after', async () => {
    boss = createBoss(db.url, 'consumer', (e) => queueErrors.push(e));
    await boss.start();
    await boss.createQueue(QUEUE);
    const ran: string[] = [];
    let away = false;
    await boss.work(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      ran.push(job!.id);
      // The first job's end is then written to a database that refuses it.
      if (!away) {
        away = true;
        await databaseAway();
      }
    });
    const first = await boss.send(QUEUE, {});
    await until('the first job to run', () => ran.length === 1, 10_000);
    // Its end could not be written: either the queue says so through its error event, or (pg-boss alone) the
    // write's rejection is left unhandled — and Node would end the process.
    const lostEnd = () => queueErrors.filter((e) => /end of job .* not recorded/.test(String(e?.message)));
    await until('the lost end of the job', () => lostEnd().length > 0 || unhandled.length > 0, 10_000);
    expect(unhandled).toEqual([]);
    expect(lostEnd()[0]!.message).toContain(first);

    // The database back, the same worker runs and completes the next job.
    await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
    const second = await boss.send(QUEUE, {});
    await until(
      'the second job to complete',
      async () => (await boss!.getJobById(QUEUE, second!))?.state === 'completed',
      15_000,
    );
    expect(ran).toEqual([first, second]);
    expect(unhandled).toEqual([]);
  });
});
