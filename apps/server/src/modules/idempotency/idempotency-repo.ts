import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { SealedAt } from '../../lib/crypto';

/** Where a kept answer is sealed: its user and key (issue 20). */
export const keptAnswerAt = (userId: string, key: string): SealedAt => ({
  table: 'idempotency_keys',
  column: 'response',
  row: `${userId}/${key}`,
});

/** How long a key names its request: older keys are ignored, then deleted. */
export const KEY_LIFETIME_HOURS = 24;
/**
 * A request still unanswered after this long died with its process (no request runs that long): its key
 * may be claimed again, so a retry is not refused for a day.
 */
export const ABANDONED_AFTER_SECONDS = 300;
/** Expired keys deleted per claim: the sweep stays small, and it skips rows another claim is sweeping. */
const SWEEP_BATCH = 100;

export type IdempotencyRequest = {
  userId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
};

export type StoredRequest = {
  method: string;
  path: string;
  requestHash: string;
  /** Null while the first request is still being answered. */
  statusCode: number | null;
  /** The answer as stored (the store decides its shape). */
  response: unknown;
};

/** The `idempotency_keys` table: one row per user and key, the first request's answer once it has one. */
export function createIdempotencyRepo(db: Database) {
  return {
    /**
     * Claims the key for this request: true when it is now this request's to answer (a new key, or one
     * expired or abandoned, taken over in the same statement), false when a live row already holds it.
     * Sweeps a batch of other expired keys in the same statement.
     */
    async claim(r: IdempotencyRequest): Promise<boolean> {
      const res = await db.execute(sql`
        WITH swept AS (
          DELETE FROM idempotency_keys
           WHERE (user_id, key) IN (
             SELECT user_id, key FROM idempotency_keys
              WHERE created_at < now() - make_interval(hours => ${KEY_LIFETIME_HOURS})
                AND NOT (user_id = ${r.userId} AND key = ${r.key})
              LIMIT ${SWEEP_BATCH}
                FOR UPDATE SKIP LOCKED)
        )
        INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
        VALUES (${r.userId}, ${r.key}, ${r.method}, ${r.path}, ${r.requestHash})
        ON CONFLICT (user_id, key) DO UPDATE
           SET method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
               status_code = NULL, response = NULL, created_at = now()
         WHERE idempotency_keys.created_at < now() - make_interval(hours => ${KEY_LIFETIME_HOURS})
            OR (idempotency_keys.status_code IS NULL
                AND idempotency_keys.created_at < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))
        RETURNING 1`);
      return res.rows.length === 1;
    },

    /** The live row holding the key, if any (an expired one is ignored). */
    async find(userId: string, key: string): Promise<StoredRequest | undefined> {
      const res = await db.execute(sql`
        SELECT method, path, request_hash, status_code, response FROM idempotency_keys
         WHERE user_id = ${userId} AND key = ${key}
           AND created_at >= now() - make_interval(hours => ${KEY_LIFETIME_HOURS})`);
      const row = res.rows[0];
      if (!row) return undefined;
      return {
        method: row.method as string,
        path: row.path as string,
        requestHash: row.request_hash as string,
        statusCode: row.status_code === null ? null : Number(row.status_code),
        response: row.response,
      };
    },

    /** The claimed request's answer, kept for the key's repeats. */
    async complete(userId: string, key: string, statusCode: number, response: unknown): Promise<void> {
      await db.execute(sql`
        UPDATE idempotency_keys SET status_code = ${statusCode}, response = ${JSON.stringify(response)}::jsonb
         WHERE user_id = ${userId} AND key = ${key} AND status_code IS NULL`);
    },

    /** Gives a claimed key back unanswered (a 5xx): the next request with it runs again. */
    async release(userId: string, key: string): Promise<void> {
      await db.execute(sql`
        DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} AND status_code IS NULL`);
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
