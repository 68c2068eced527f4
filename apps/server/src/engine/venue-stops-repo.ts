import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { trades, venueStops } from '../db/schema/index';

export type VenueStopRow = typeof venueStops.$inferSelect;
export type VenueStopStatus = VenueStopRow['status'];
type TradeStatus = (typeof trades.$inferSelect)['status'];

/** A stop that is (or may be) resting on the venue. */
export const LIVE_STOP_STATES: readonly VenueStopStatus[] = ['submitted', 'open', 'unknown'];

/** The stops resting on venues for trades (issue 18), one row per placement. */
export function createVenueStopsRepo(db: Database) {
  return {
    /** Committed before the venue call: from then on the stop may be at the venue, and is looked up, not re-sent. */
    async insert(values: typeof venueStops.$inferInsert): Promise<{ row: VenueStopRow; created: boolean }> {
      const [row] = await db.insert(venueStops).values(values).onConflictDoNothing().returning();
      if (row) return { row, created: true };
      const [existing] = await db
        .select()
        .from(venueStops)
        .where(
          and(
            eq(venueStops.tradingAccountId, values.tradingAccountId),
            eq(venueStops.clientOrderId, values.clientOrderId),
          ),
        );
      return { row: existing!, created: false };
    },

    async update(id: string, values: Partial<typeof venueStops.$inferInsert>): Promise<VenueStopRow> {
      const [row] = await db
        .update(venueStops)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(venueStops.id, id))
        .returning();
      return row!;
    },

    /** Every placement of a trade's stop, oldest first. */
    async ofTrade(tradeId: string): Promise<VenueStopRow[]> {
      return db
        .select()
        .from(venueStops)
        .where(eq(venueStops.tradeId, tradeId))
        .orderBy(asc(venueStops.createdAt), asc(venueStops.clientOrderId));
    },

    /** The account's stops resting (or possibly resting) on its venue, with their trade's status. */
    async liveOfAccount(accountId: string): Promise<(VenueStopRow & { tradeStatus: TradeStatus })[]> {
      const rows = await db
        .select({ stop: venueStops, tradeStatus: trades.status })
        .from(venueStops)
        .innerJoin(trades, eq(trades.id, venueStops.tradeId))
        .where(
          and(eq(venueStops.tradingAccountId, accountId), inArray(venueStops.status, [...LIVE_STOP_STATES])),
        );
      return rows.map((r) => ({ ...r.stop, tradeStatus: r.tradeStatus }));
    },
  };
}

export type VenueStopsRepo = ReturnType<typeof createVenueStopsRepo>;
