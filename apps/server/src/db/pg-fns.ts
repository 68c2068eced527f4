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

/** A pooled connection LISTENing on one channel (the session cache's and the live events' invalidations). */
export type Listening = { close(): Promise<void> };

/**
 * Checks a connection out of `pool` and LISTENs on `channel`. `onLost` is called once if the connection
 * fails (it is then destroyed); `close()` UNLISTENs and gives it back. Either way the handlers come off before
 * the release: the pool hands the same client object to later checkouts, whose errors are not this channel's
 * (an error heard there once released a checkout twice, and pool.end() then waited forever).
 */
export async function listenOn(
  pool: pg.Pool,
  channel: string,
  onNotification: (msg: pg.Notification) => void,
  onLost: (error: Error) => void,
): Promise<Listening> {
  const client = await pool.connect();
  let released = false;
  const release = (destroy: boolean) => {
    if (released) return;
    released = true;
    client.removeListener('notification', onNotification);
    client.removeListener('error', onError);
    // A destroyed connection may still report its end: heard, and nobody else's.
    if (destroy) client.on('error', () => {});
    client.release(destroy);
  };
  function onError(error: Error) {
    release(true);
    onLost(error);
  }
  client.on('notification', onNotification);
  client.on('error', onError);
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (e) {
    release(true);
    throw e;
  }
  return {
    async close() {
      if (released) return;
      await client.query(`UNLISTEN ${channel}`).catch(() => {});
      release(false);
    },
  };
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
