import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The connection string of the embedded PostgreSQL a server started under `dataDir`
 * (KAIROS_DATA_DIR): the `kairos` superuser and database, the port from the cluster's
 * postmaster.pid (4th line), the password from the file next to the cluster
 * (see apps/server/src/db/embedded-postgres.ts).
 */
export function embeddedDatabaseUrl(dataDir: string): string | undefined {
  try {
    const port = fs
      .readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
      .split('\n')[3]
      ?.trim();
    const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    return port ? `postgres://kairos:${encodeURIComponent(password)}@127.0.0.1:${port}/kairos` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Direct SQL on the run's database, for the few arrangements no API can make (a trade closed in
 * a month that is over, an alert waiting for its retry). Act and assert through the app, never here.
 */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = inject('databaseUrl');
  if (!url) throw new Error('e2e: the run did not say where its database is (global-setup.ts)');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
