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
