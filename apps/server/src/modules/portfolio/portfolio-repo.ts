import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

const PERIODS = {
  '1d': { back: "interval '1 day'", step: "interval '1 hour'" },
  '7d': { back: "interval '7 days'", step: "interval '4 hours'" },
  '30d': { back: "interval '30 days'", step: "interval '1 day'" },
  '90d': { back: "interval '90 days'", step: "interval '1 day'" },
  '1y': { back: "interval '1 year'", step: "interval '1 day'" },
  all: { back: null, step: "interval '1 day'" },
} as const;
export type PortfolioPeriod = keyof typeof PERIODS;

export type EquityPointRow = { time: Date; value: string };

export type PortfolioRepo = ReturnType<typeof createPortfolioRepo>;

export function createPortfolioRepo(db: Database) {
  return {
    /** Total equity of the user's accounts at each point of the period, each account's last snapshot carried forward. */
    async equityHistory(userId: string, period: PortfolioPeriod): Promise<EquityPointRow[]> {
      const p = PERIODS[period];
      const start = p.back
        ? sql.raw(`date_bin(${p.step}, now() - ${p.back}, timestamptz '2000-01-01')`)
        : sql`(SELECT coalesce(date_trunc('day', min(at)), date_trunc('day', now())) FROM balance_snapshots WHERE user_id = ${userId})`;
      const r = (await db.execute(sql`
        WITH points AS (
          SELECT t FROM generate_series(${start}, now(), ${sql.raw(p.step)}) t
          UNION SELECT now()
        ), accounts AS (SELECT id, archived_at FROM trading_accounts WHERE user_id = ${userId})
        SELECT points.t AS time, sum(s.equity)::text AS value
        -- A deleted (archived) account counts until it was deleted.
        FROM points JOIN accounts ON accounts.archived_at IS NULL OR points.t < accounts.archived_at
        JOIN LATERAL (
          SELECT equity FROM balance_snapshots WHERE trading_account_id = accounts.id AND at <= points.t
          ORDER BY at DESC LIMIT 1
        ) s ON TRUE
        GROUP BY points.t ORDER BY points.t`)) as { rows: EquityPointRow[] };
      return r.rows;
    },
  };
}
