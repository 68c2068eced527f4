import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

export type RejectionCount = {
  minute: Date;
  strategyKey: string;
  reason: string;
  count: number;
  lastAt: Date;
  lastAddress: string | null;
};

/** Refused webhooks, counted per minute, strategy key and reason (issue 21); a week is kept. */
export function createWebhookRejectionsRepo(db: Database) {
  return {
    /** Adds counts (one statement for a flush of many) and forgets what is older than a week. */
    async add(rows: RejectionCount[]): Promise<void> {
      if (rows.length === 0) return;
      // Each column one array parameter (sql.param: an array left to drizzle would become a list).
      const column = (pick: (r: RejectionCount) => unknown) => sql.param(rows.map(pick));
      await db.execute(sql`
        WITH input AS (
          SELECT * FROM unnest(${column((r) => r.minute.toISOString())}::timestamptz[],
            ${column((r) => r.strategyKey)}::text[], ${column((r) => r.reason)}::text[],
            ${column((r) => r.count)}::int[], ${column((r) => r.lastAt.toISOString())}::timestamptz[],
            ${column((r) => r.lastAddress)}::text[])
            AS i(minute, strategy_key, reason, count, last_at, last_address)
        ), pruned AS (
          DELETE FROM webhook_rejections WHERE last_at < now() - interval '7 days'
        )
        INSERT INTO webhook_rejections (minute, strategy_key, reason, count, last_at, last_address)
        SELECT * FROM input
        ON CONFLICT (minute, strategy_key, reason) DO UPDATE SET
          count = webhook_rejections.count + excluded.count,
          last_at = greatest(webhook_rejections.last_at, excluded.last_at),
          last_address = excluded.last_address`);
    },

    /**
     * Refusals since `since`, summed per strategy key and reason, most recent first, with the strategy they
     * name when it exists (its nickname and owner).
     */
    async summary(since: Date, limit: number) {
      const res = await db.execute(sql`
        SELECT r.strategy_key, r.reason, sum(r.count)::int AS count, max(r.last_at) AS last_at,
          (array_agg(r.last_address ORDER BY r.last_at DESC))[1] AS last_address,
          s.id AS strategy_id, s.nickname AS strategy_nickname, u.email AS owner_email
        FROM webhook_rejections r
        LEFT JOIN strategies s ON s.strategy_key = r.strategy_key
        LEFT JOIN users u ON u.id = s.owner_id
        WHERE r.last_at >= ${since.toISOString()}
        GROUP BY r.strategy_key, r.reason, s.id, s.nickname, u.email
        ORDER BY max(r.last_at) DESC
        LIMIT ${limit}`);
      return res.rows.map((r) => ({
        strategyKey: r.strategy_key as string,
        reason: r.reason as string,
        count: Number(r.count),
        lastAt: new Date(r.last_at as string),
        lastAddress: (r.last_address as string | null) ?? null,
        strategyId: (r.strategy_id as string | null) ?? null,
        strategyNickname: (r.strategy_nickname as string | null) ?? null,
        ownerEmail: (r.owner_email as string | null) ?? null,
      }));
    },
  };
}

export type WebhookRejectionsRepo = ReturnType<typeof createWebhookRejectionsRepo>;
