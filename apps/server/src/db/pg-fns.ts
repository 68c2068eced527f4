import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';
import type pg from 'pg';

/** A unique index broke: the pg error, or one in the cause chain of Drizzle's error wrapping it. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: string; constraint?: string; cause?: unknown };
    if (candidate.code === '23505' && candidate.constraint === constraint) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * A condition that is always true and lets the statement's own transaction commit without waiting for its
 * WAL flush (`set_config(..., is_local)` lasts until that commit). For writes whose loss in a database crash
 * is repaired anyway (see docs/decisions.md, "Which commits wait for the disk"); a later durable commit
 * flushes them too. Put it where the statement evaluates it (a WHERE over the rows it writes or returns).
 */
export const relaxedCommit = sql`set_config('synchronous_commit', 'off', true) IS NOT NULL`;

const releasedClients = new WeakSet<pg.PoolClient>();

/** A pooled client is released exactly once, whether by an error (possibly repeated) or by close(). */
export function releaseOnce(client: pg.PoolClient, destroy?: boolean) {
  if (releasedClients.has(client)) return;
  releasedClients.add(client);
  client.release(destroy);
}

/**
 * A table's columns as a raw statement's RETURNING gives them (`returning`: each column as `prefix` + its
 * key), and the fields that read them back exactly as Drizzle reads the table (for `$with(...).as(sql)`):
 * the prefix keeps two tables' columns apart in one row.
 */
export function prefixedColumns<T extends Table>(table: T, prefix: string) {
  const entries = Object.entries(getTableColumns(table));
  return {
    fields: Object.fromEntries(
      entries.map(([key, column]) => [
        key,
        sql`${sql.identifier(prefix + key)}`.mapWith(column).as(prefix + key),
      ]),
    ) as { [K in keyof T['$inferSelect']]: SQL.Aliased<T['$inferSelect'][K]> },
    /** The RETURNING list; `from` qualifies the columns (an UPDATE ... FROM has two tables' names). */
    returning: (from?: string) =>
      sql.raw(
        entries
          .map(([key, column]) => `${from ? `${from}.` : ''}"${column.name}" AS "${prefix}${key}"`)
          .join(', '),
      ),
  };
}
