import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';

export type TestDatabase = DbHandle & { url: string; name: string; drop(): Promise<void> };

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, migrated database for one test file; dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('databaseUrl');
  const name = `kairos_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const handle = connectDatabase(url, { max: 10 });
  await runMigrations(handle);
  return {
    ...handle,
    url,
    name,
    async drop() {
      await handle.close();
      const c = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The operator's caps on what one user holds (issue 20) lifted: tests give one user far more accounts, bots
 * and strategies than a person has (a fault matrix: an account per cell). test/security/quotas.test.ts keeps
 * the defaults (`keepQuotas`).
 */
export async function liftQuotas(db: Pick<TestDatabase, 'pool'>): Promise<void> {
  await db.pool.query(
    `INSERT INTO quota_settings (id, max_strategies, max_trading_accounts, max_bots, max_event_streams)
     VALUES (1, 100000, 100000, 100000, 100000)
     ON CONFLICT (id) DO UPDATE SET max_strategies = 100000, max_trading_accounts = 100000,
       max_bots = 100000, max_event_streams = 100000, updated_at = now()`,
  );
}
