import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';

// numeric stays a string (decimal money, never float); int8 counts become JS numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// numeric(38,18) pads to 18 decimals: "5.000000000000000000" reads back as "5" (same value, still a string).
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) =>
  v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v,
);

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Transaction;

export type DbHandle = { pool: pg.Pool; db: Database; close(): Promise<void> };

export function connectDatabase(
  url: string,
  opts: { max?: number; onError?: (e: Error) => void } = {},
): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 20,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its server (restart, failover) must not crash the process; the pool reconnects.
  pool.on('error', (e) => opts.onError?.(e));
  // Nor may a checked-out one (a transaction, a held advisory lock) between two of its queries, where the
  // pool has no listener on it: the query in flight is rejected, and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  let closed = false;
  return {
    pool,
    db,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
