import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { TradeDbRow } from '../../engine/trades-repo';
import { ledgerFigures, type TradeLedgerTotals } from './trade-ledger-fns';

type TotalsRow = {
  id: string;
  fills: number;
  quote_flow: string;
  held: string;
  entry_quantity: string;
  entry_cost: string;
  exit_quantity: string;
  fees: string;
  funding: string;
  booked: string | null;
};

/**
 * The trades' ledger events added up (issue 19), one aggregate for a whole page: each fill's legs netted
 * by fill (a fill taken back and booked again counts once), then the entries, exits and quote flow; the
 * fees in the quote at their recorded rates; the funding; the booked PnL events. Scoped to the user.
 */
export function createTradeLedgerRepo(db: Database) {
  async function totals(
    userId: string,
    tradeIds: readonly string[],
  ): Promise<Map<string, TradeLedgerTotals>> {
    if (tradeIds.length === 0) return new Map();
    const { rows } = (await db.execute(sql`
      SELECT t.id, coalesce(f.fills, 0)::int AS fills,
             coalesce(f.quote_flow, 0)::text AS quote_flow, coalesce(f.held, 0)::text AS held,
             coalesce(f.entry_quantity, 0)::text AS entry_quantity, coalesce(f.entry_cost, 0)::text AS entry_cost,
             coalesce(f.exit_quantity, 0)::text AS exit_quantity,
             coalesce(o.fees, 0)::text AS fees, coalesce(o.funding, 0)::text AS funding, o.booked::text AS booked
      FROM trades t
      CROSS JOIN LATERAL (SELECT split_part(split_part(t.symbol, '/', 2), ':', 1) AS quote,
                                 CASE t.side WHEN 'long' THEN 1 ELSE -1 END AS entry_sign) c
      LEFT JOIN LATERAL (
        SELECT count(*) AS fills, sum(l.q) AS quote_flow, sum(l.b) AS held,
               sum(abs(l.b)) FILTER (WHERE sign(l.b) = c.entry_sign) AS entry_quantity,
               sum(abs(l.q)) FILTER (WHERE sign(l.b) = c.entry_sign) AS entry_cost,
               sum(abs(l.b)) FILTER (WHERE sign(l.b) = -c.entry_sign) AS exit_quantity
        FROM (
          SELECT coalesce(sum(e.amount) FILTER (WHERE e.currency = c.quote), 0) AS q,
                 coalesce(sum(e.amount) FILTER (WHERE e.currency <> c.quote), 0) AS b
          FROM ledger_events e WHERE e.trade_id = t.id AND e.kind = 'fill'
          GROUP BY e.ref
        ) l
      ) f ON TRUE
      LEFT JOIN LATERAL (
        SELECT -sum(CASE WHEN e.currency = c.quote THEN e.amount ELSE e.amount * e.rate END)
                 FILTER (WHERE e.kind = 'fee') AS fees,
               sum(e.amount) FILTER (WHERE e.kind = 'funding') AS funding,
               sum(e.amount) FILTER (WHERE e.kind = 'realised_pnl') AS booked
        FROM ledger_events e WHERE e.trade_id = t.id AND e.kind IN ('fee', 'funding', 'realised_pnl')
      ) o ON TRUE
      WHERE t.user_id = ${userId} AND t.id IN (${sql.join(
        tradeIds.map((id) => sql`${id}`),
        sql`, `,
      )})`)) as { rows: TotalsRow[] };
    return new Map(
      rows.map((r) => [
        r.id,
        {
          fills: r.fills,
          quoteFlow: r.quote_flow,
          held: r.held,
          entryQuantity: r.entry_quantity,
          entryCost: r.entry_cost,
          exitQuantity: r.exit_quantity,
          fees: r.fees,
          funding: r.funding,
          booked: r.booked,
        },
      ]),
    );
  }

  return {
    /**
     * The trades as the ledger tells them: their realised PnL, PnL %, commission and funding replaced by the
     * ledger's figures (a column changed behind the books' back shows nothing), in the same order.
     */
    async withLedgerFigures<T extends TradeDbRow>(userId: string, rows: readonly T[]): Promise<T[]> {
      const byTrade = await totals(
        userId,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ ...r, ...ledgerFigures(byTrade.get(r.id), r) }));
    },
  };
}

export type TradeLedgerRepo = ReturnType<typeof createTradeLedgerRepo>;
