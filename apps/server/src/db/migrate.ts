import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Database, DbHandle } from './client';

// Source: src/db/migrations; bundle: dist/migrations (copied by build.mjs) — both sit beside this code.
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const MIGRATION_LOCK = 724_311_001;

/** Applies pending migrations; an advisory lock lets several processes start at once safely. */
export async function runMigrations({ pool, db }: DbHandle): Promise<void> {
  const lockHolder = await pool.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(db, { migrationsFolder });
  } finally {
    await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockHolder.release();
  }
}

type Journal = { entries: { tag: string }[] };

export function expectedMigrationCount(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  return journal.entries.length;
}

export async function appliedMigrationCount(db: Database): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
  );
  return result.rows[0]?.n ?? 0;
}
