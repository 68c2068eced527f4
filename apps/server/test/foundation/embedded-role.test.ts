import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres';
import { runMigrations } from '../../src/db/migrate';

/**
 * Issue 20: on its embedded PostgreSQL the app connects as a role of its own, not the superuser — it owns its
 * database and what is in it, and cannot reach superuser powers such as `COPY … FROM PROGRAM`.
 */
let tmp: string;
let cluster: EmbeddedPostgres;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-role-'));
  fs.chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must reach its data dir
  cluster = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the app role on embedded PostgreSQL', () => {
  it('is no superuser, runs the migrations and owns what they make', async () => {
    const [me] = await query(
      cluster.url,
      `SELECT current_user AS name, rolsuper, rolcreatedb, rolcreaterole
      FROM pg_roles WHERE rolname = current_user`,
    );
    expect(me).toEqual({ name: 'kairos_app', rolsuper: false, rolcreatedb: false, rolcreaterole: false });
    await expect(query(cluster.url, `COPY (SELECT 1) TO PROGRAM 'true'`)).rejects.toThrow(
      /permission denied|privilege/i,
    );
    await expect(query(cluster.url, `SELECT pg_read_file('postgresql.conf')`)).rejects.toThrow(
      /permission denied/i,
    );

    const db = connectDatabase(cluster.url, { max: 2 });
    try {
      await runMigrations(db);
    } finally {
      await db.close();
    }
    const foreign = await query(
      cluster.url,
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'drizzle') AND c.relowner <> 'kairos_app'::regrole`,
    );
    expect(foreign).toEqual([]);
  });

  it('takes over what the superuser made in its database before (a cluster from before issue 20)', async () => {
    await query(
      cluster.adminUrl,
      `CREATE SCHEMA legacy;
      CREATE TABLE legacy.t (id serial PRIMARY KEY);
      CREATE SEQUENCE legacy.s;
      CREATE TYPE legacy.e AS ENUM ('a');
      CREATE FUNCTION legacy.f() RETURNS int LANGUAGE sql AS 'SELECT 1'`,
    );
    await cluster.stop();
    cluster = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
    const owners = await query(
      cluster.url,
      `
      SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'legacy'
      UNION ALL SELECT relowner::regrole::text FROM pg_class WHERE relnamespace = 'legacy'::regnamespace AND relkind IN ('r', 'S')
      UNION ALL SELECT typowner::regrole::text FROM pg_type WHERE typname = 'e'
      UNION ALL SELECT proowner::regrole::text FROM pg_proc WHERE proname = 'f' AND pronamespace = 'legacy'::regnamespace`,
    );
    expect(owners.length).toBe(6);
    expect(new Set(owners.map((o) => o.owner))).toEqual(new Set(['kairos_app']));
    await query(cluster.url, `INSERT INTO legacy.t DEFAULT VALUES; DROP SCHEMA legacy CASCADE`);
  }, 60_000);
});
