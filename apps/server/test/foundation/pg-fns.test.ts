import pg from 'pg';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { listenOn } from '../../src/db/pg-fns';

/**
 * listenOn (the LISTEN channels of the session cache and the live events hub). pg's pool hands the same
 * client object out again after a release: a channel's handlers must not outlive its checkout, or an error on
 * a later checkout is taken for the channel's and releases that checkout a second time (which throws, and
 * pool.end() then waits forever — an app stopped and started again on one pool never finished stopping).
 */
const url = new URL(inject('databaseUrl'));
url.pathname = '/postgres';
const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
afterAll(() => pool.end());

/** Ends the server side of the pool's one connection, as a database restart would. */
async function terminate(pid: number) {
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

const backendPid = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;

describe('listenOn', () => {
  it('hears notifications, and tells once when its connection is lost (the connection destroyed)', async () => {
    const heard: string[] = [];
    let lost = 0;
    const channel = await listenOn(
      pool,
      'kairos_pg_fns_test',
      (msg) => heard.push(msg.payload ?? ''),
      () => (lost += 1),
    );
    // The pool's one connection is the channel's: notify from another.
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    await other.query(`SELECT pg_notify('kairos_pg_fns_test', 'hello')`);
    const { rows } = await other.query(
      `SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN kairos_pg_fns_test%' AND pid <> pg_backend_pid()`,
    );
    await other.end();
    await expect.poll(() => heard).toContain('hello');

    await terminate(rows[0].pid);
    await expect.poll(() => lost).toBe(1);
    expect(pool.totalCount).toBe(0);
    await channel.close(); // already given back: nothing happens
    expect(lost).toBe(1);
  });

  it("leaves a later checkout of the same connection alone: its error is not the closed channel's", async () => {
    let lost = 0;
    const channel = await listenOn(
      pool,
      'kairos_pg_fns_test',
      () => undefined,
      () => (lost += 1),
    );
    await channel.close();
    expect(pool.idleCount).toBe(1);

    const later = await pool.connect();
    const errors: Error[] = [];
    later.on('error', (e) => errors.push(e));
    await terminate(backendPid(later));
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(() => later.release(true)).not.toThrow(); // released once: by its own holder
    expect(pool.totalCount).toBe(0);
  });
});
