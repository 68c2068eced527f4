import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { createBatchLoader } from '../lib/batch-loader';
import type { Database } from '../db/client';
import { trades, venueStops } from '../db/schema/index';

export type VenueStopRow = typeof venueStops.$inferSelect;
export type VenueStopStatus = VenueStopRow['status'];
type TradeStatus = (typeof trades.$inferSelect)['status'];

/** A stop that is (or may be) resting on the venue. */
export const LIVE_STOP_STATES: readonly VenueStopStatus[] = ['submitted', 'open', 'unknown'];

/** Rows a batch statement of the stops writes or reads at most. */
const MAX_BATCH = 500;

type NewStop = typeof venueStops.$inferInsert;
/**
 * The columns a stop's change may set (what the venue says of it, or why it is not there: `lastError` with its
 * code and params, written together).
 */
export type VenueStopChange = Partial<
  Pick<
    VenueStopRow,
    'status' | 'venueOrderId' | 'triggeredOrderId' | 'lastError' | 'lastErrorCode' | 'lastErrorParams'
  >
>;

/**
 * The stops resting on venues for trades (issue 18), one row per placement. Its reads and writes go out in
 * batches when many trades' stops are worked on at once (a fan-out's set-ups): one statement for the lot.
 */
export function createVenueStopsRepo(db: Database) {
  async function insertMany(
    values: readonly NewStop[],
  ): Promise<({ row: VenueStopRow; created: boolean } | Error)[]> {
    const inserted = await db
      .insert(venueStops)
      .values([...values])
      .onConflictDoNothing()
      .returning();
    const key = (r: { tradingAccountId: string; clientOrderId: string }) =>
      `${r.tradingAccountId} ${r.clientOrderId}`;
    const created = new Map(inserted.map((r) => [key(r), r]));
    const missing = values.filter((v) => !created.has(key(v)));
    const existing =
      missing.length === 0
        ? []
        : await db
            .select()
            .from(venueStops)
            .where(
              sql`(${venueStops.tradingAccountId}, ${venueStops.clientOrderId}) IN (SELECT * FROM unnest(
                ${sql.param(missing.map((m) => m.tradingAccountId))}::uuid[],
                ${sql.param(missing.map((m) => m.clientOrderId))}::text[]))`,
            );
    const found = new Map(existing.map((r) => [key(r), r]));
    // A key sent twice in one batch is created once: the second caller finds the first's row.
    return values.map((v) => {
      const mine = created.get(key(v));
      if (mine) {
        created.delete(key(v));
        found.set(key(v), mine);
        return { row: mine, created: true };
      }
      const theirs = found.get(key(v));
      return theirs
        ? { row: theirs, created: false }
        : new Error(`Venue stop ${v.clientOrderId} was not written`);
    });
  }

  async function updateMany(items: readonly { id: string; values: VenueStopChange }[]) {
    const col = <T>(pick: (i: (typeof items)[number]) => T) => sql.param(items.map(pick));
    const has = (k: keyof VenueStopChange) => col((i) => k in i.values);
    const value = <K extends keyof VenueStopChange>(k: K) => col((i) => i.values[k] ?? null);
    await db.execute(sql`
      UPDATE ${venueStops} v SET
        status = CASE WHEN c.set_status THEN c.status ELSE v.status END,
        venue_order_id = CASE WHEN c.set_venue THEN c.venue_order_id ELSE v.venue_order_id END,
        triggered_order_id = CASE WHEN c.set_triggered THEN c.triggered_order_id ELSE v.triggered_order_id END,
        last_error = CASE WHEN c.set_error THEN c.last_error ELSE v.last_error END,
        last_error_code = CASE WHEN c.set_error THEN c.last_error_code ELSE v.last_error_code END,
        last_error_params = CASE WHEN c.set_error THEN c.last_error_params::jsonb ELSE v.last_error_params END,
        updated_at = now()
      FROM unnest(${col((i) => i.id)}::uuid[], ${has('status')}::boolean[], ${value('status')}::text[],
        ${has('venueOrderId')}::boolean[], ${value('venueOrderId')}::text[],
        ${has('triggeredOrderId')}::boolean[], ${value('triggeredOrderId')}::text[],
        ${has('lastError')}::boolean[], ${value('lastError')}::text[], ${value('lastErrorCode')}::text[],
        ${col((i) => (i.values.lastErrorParams ? JSON.stringify(i.values.lastErrorParams) : null))}::text[])
        AS c(id, set_status, status, set_venue, venue_order_id, set_triggered, triggered_order_id, set_error,
             last_error, last_error_code, last_error_params)
      WHERE v.id = c.id`);
    const rows = await db
      .select()
      .from(venueStops)
      .where(inArray(venueStops.id, [...new Set(items.map((i) => i.id))]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((i) => byId.get(i.id) ?? new Error(`Venue stop ${i.id} is gone`));
  }

  async function ofTrades(tradeIds: readonly string[]): Promise<VenueStopRow[][]> {
    const rows = await db
      .select()
      .from(venueStops)
      .where(inArray(venueStops.tradeId, [...new Set(tradeIds)]))
      .orderBy(asc(venueStops.createdAt), asc(venueStops.clientOrderId));
    return tradeIds.map((id) => rows.filter((r) => r.tradeId === id));
  }

  const inserts = createBatchLoader(insertMany, { maxBatchSize: MAX_BATCH });
  const updates = createBatchLoader(updateMany, { maxBatchSize: MAX_BATCH });
  const reads = createBatchLoader(ofTrades, { maxBatchSize: MAX_BATCH });

  return {
    /** Committed before the venue call: from then on the stop may be at the venue, and is looked up, not re-sent. */
    insert(values: NewStop): Promise<{ row: VenueStopRow; created: boolean }> {
      return inserts(values);
    },

    update(id: string, values: VenueStopChange): Promise<VenueStopRow> {
      return updates({ id, values });
    },

    /** Every placement of a trade's stop, oldest first. */
    ofTrade(tradeId: string): Promise<VenueStopRow[]> {
      return reads(tradeId);
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
