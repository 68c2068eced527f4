import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  ACTIVE_TRADE_STATUSES,
  InvalidTradeTransitionError,
  LIVE_ORDER_STATES,
  toDecimal,
  toNumericString,
  type TradeStatus,
} from '@kairos/core';
import { isUniqueViolation, relaxedCommit } from '../db/pg-fns';
import { createBatchLoader, mapLimited } from '../lib/batch-loader';
import type { Database, DbOrTx } from '../db/client';
import { fills, fundingPayments, orders, trades, tradingAccounts, venueStops } from '../db/schema/index';
import {
  batchStatements,
  figuresParams,
  fillsParams,
  prepareHotStatements,
  statusWriteAllowed,
} from './trades-repo-statements';
import { LIVE_STOP_STATES } from './venue-stops-repo';
import { NO_LAST_ERROR } from './last-error';

export type TradeDbRow = typeof trades.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type FillRow = typeof fills.$inferSelect;
export type OrderState = OrderRow['status'];
/** A fill with what the engine needs of its order (side and role). */
export type TradeFillRow = FillRow & { side: 'buy' | 'sell'; role: string };
/** What a new trade is opened with. */
export type NewTrade = Pick<
  typeof trades.$inferInsert,
  | 'id'
  | 'userId'
  | 'botId'
  | 'tradingAccountId'
  | 'strategyId'
  | 'alertId'
  | 'symbol'
  | 'side'
  | 'takeProfits'
  | 'stopLossPercent'
  | 'breakEvenAfterTp1'
  | 'leveragePercent'
  | 'stopLimitOffsetPercent'
>;
/** What a trade's entry order is committed with. */
export type NewEntry = Pick<
  typeof orders.$inferInsert,
  | 'userId'
  | 'tradingAccountId'
  | 'clientOrderId'
  | 'role'
  | 'symbol'
  | 'side'
  | 'type'
  | 'price'
  | 'amount'
  | 'status'
>;
/** What venue news changes on an order. */
export type OrderChange = Pick<
  OrderRow,
  | 'status'
  | 'venueOrderId'
  | 'filled'
  | 'average'
  | 'price'
  | 'lastError'
  | 'lastErrorCode'
  | 'lastErrorParams'
>;

/** The venue trade id of an order's inferred fill (one per order). */
export const INFERRED_FILL_ID = 'inferred';

/** Orders whose venue state is not final (core's list): what reconciliation re-reads. */
export { LIVE_ORDER_STATES };

export type TradeFigures = Pick<
  TradeDbRow,
  'quantity' | 'entryPrice' | 'exitPrice' | 'entryNotional' | 'commission' | 'realisedPnl' | 'pnlPercent'
>;

/** Fills as arrays (one statement text for any number of them), deduped by venue trade id. */

/**
 * How a row written before a venue call is committed: `durable` (flushed before the call: an external venue
 * must never hold an order we could forget) or `relaxed` (the venue shares our database; see relaxedCommit).
 */
export type CommitMode = 'durable' | 'relaxed';

/** SQL for trades, their orders and fills — the engine's ledger of what happened on venues. */
/** One bot's trade and entry (`insertTradeWithEntry`). */
type EntryItem = { trade: NewTrade & { id: string }; order: NewEntry };
/** One venue answer with its trade's figures (`updateOrderWithFigures`). */
type AnswerItem = {
  seen: Pick<OrderRow, 'id' | 'status' | 'filled' | 'price' | 'tradeId'>;
  values: OrderChange;
  newFills: (typeof fills.$inferInsert)[];
  /** The trade's figures written with the order's change; none: the order (and its fills) alone. */
  figures?: TradeFigures;
  end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>;
};
/** Rows a batch statement writes at most. */
const MAX_BATCH = 200;
/** Items of a failed batch redone alone, this many at a time (the pool has 20 connections). */
const ALONE_CONCURRENCY = 8;

export function createTradesRepo(db: Database) {
  const hot = prepareHotStatements(db);
  const batch = batchStatements(db);

  /** Writes trades with their entries in one statement (a bot's, or a fan-out's many). */
  async function writeEntries(unordered: readonly EntryItem[], commit: CommitMode) {
    // Rows in one order (bot, account, client order id): two batches sharing rows wait for each other on the
    // unique indexes instead of deadlocking.
    const key = (i: EntryItem) =>
      `${i.trade.botId ?? ''} ${i.trade.tradingAccountId} ${i.order.clientOrderId}`;
    const items = [...unordered].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const column = <T>(pick: (item: EntryItem) => T) => items.map(pick);
    // The orders' foreign keys are checked at the statement's end, when the trade rows exist.
    const statement = commit === 'relaxed' ? batch.tradesWithEntriesRelaxed : batch.tradesWithEntries;
    const rows = await statement.execute({
      ids: column((i) => i.trade.id),
      userIds: column((i) => i.trade.userId),
      botIds: column((i) => i.trade.botId ?? null),
      accountIds: column((i) => i.trade.tradingAccountId),
      strategyIds: column((i) => i.trade.strategyId ?? null),
      alertIds: column((i) => i.trade.alertId ?? null),
      symbols: column((i) => i.trade.symbol),
      sides: column((i) => i.trade.side),
      takeProfits: column((i) => JSON.stringify(i.trade.takeProfits ?? [])),
      stopLossPercents: column((i) => i.trade.stopLossPercent ?? null),
      breakEvens: column((i) => i.trade.breakEvenAfterTp1 ?? true),
      leverages: column((i) => i.trade.leveragePercent ?? null),
      stopLimitOffsets: column((i) => i.trade.stopLimitOffsetPercent ?? null),
      clientOrderIds: column((i) => i.order.clientOrderId),
      roles: column((i) => i.order.role),
      orderSides: column((i) => i.order.side),
      types: column((i) => i.order.type),
      prices: column((i) => i.order.price ?? null),
      amounts: column((i) => i.order.amount),
      statuses: column((i) => i.order.status ?? 'new'),
    });
    const byTrade = new Map(
      rows.map((r) => [r.new_trades.id, { trade: r.new_trades, order: r.new_entries }]),
    );
    return unordered.map((i) => byTrade.get(i.trade.id) ?? new Error(`Trade ${i.trade.id} was not written`));
  }

  /**
   * Runs `write` over the items together; when that fails (an id taken: a bot that has a trade open, a
   * client order id used; a bot or account deleted meanwhile), nothing of it is written and each item is
   * written on its own, so each caller gets the answer it would have had alone.
   */
  async function together<I, R>(items: readonly I[], write: (items: readonly I[]) => Promise<R[]>) {
    try {
      return await write(items);
    } catch (error) {
      // Whatever failed (a rule of the data, a value out of range, a deadlock), it failed for all of them:
      // each alone, so only the item at fault fails.
      if (items.length === 1) throw error;
      return mapLimited(
        items,
        ALONE_CONCURRENCY,
        async (item) => (await write([item]).catch((e: Error) => [e]))[0]!,
      );
    }
  }

  /** Trades with their entries asked for together, in one statement (see `together`). */
  function insertEntries(items: readonly EntryItem[], commit: CommitMode) {
    return together(items, (some) => writeEntries(some, commit));
  }

  /**
   * Venue answers with their trades' figures, in one statement: each order changes only if it is still as
   * its caller saw it, and its trade's figures only with it; the fills are stored either way. Undefined for
   * an answer whose order moved meanwhile.
   */
  async function writeAnswers(items: readonly AnswerItem[]) {
    const column = <T>(pick: (item: AnswerItem) => T) => items.map(pick);
    const rows = await batch.answers.execute({
      ids: column((i) => i.seen.id),
      seenStatuses: column((i) => i.seen.status),
      seenFilled: column((i) => i.seen.filled),
      seenPrices: column((i) => i.seen.price),
      statuses: column((i) => i.values.status),
      venueOrderIds: column((i) => i.values.venueOrderId),
      filled: column((i) => i.values.filled),
      averages: column((i) => i.values.average),
      prices: column((i) => i.values.price),
      lastErrors: column((i) => i.values.lastError),
      lastErrorCodes: column((i) => i.values.lastErrorCode),
      lastErrorParams: column((i) =>
        i.values.lastErrorParams ? JSON.stringify(i.values.lastErrorParams) : null,
      ),
      // No trade named: its figures stay as they are.
      tradeIds: column((i) => (i.figures ? i.seen.tradeId : null)),
      quantities: column((i) => i.figures?.quantity ?? null),
      entryPrices: column((i) => i.figures?.entryPrice ?? null),
      exitPrices: column((i) => i.figures?.exitPrice ?? null),
      entryNotionals: column((i) => i.figures?.entryNotional ?? null),
      commissions: column((i) => i.figures?.commission ?? null),
      realisedPnls: column((i) => i.figures?.realisedPnl ?? null),
      pnlPercents: column((i) => i.figures?.pnlPercent ?? null),
      tradeStatuses: column((i) => i.end?.status ?? null),
      closedAts: column((i) => i.end?.closedAt ?? null),
      closeReasons: column((i) => i.end?.closeReason ?? null),
      updatedAt: new Date(),
      ...fillsParams(items.flatMap((i) => i.newFills)),
    });
    const byOrder = new Map(rows.map((r) => [r.changed_orders.id, r]));
    return items.map((i) => {
      const row = byOrder.get(i.seen.id);
      if (!i.figures) return row ? { order: row.changed_orders, trade: undefined } : undefined;
      // A left join's missing side comes back as an object of nulls (the CTE's fields are SQL, not columns).
      return row?.figured_trades?.id ? { order: row.changed_orders, trade: row.figured_trades } : undefined;
    });
  }

  /** Answers asked for together; a second one for the same order or trade goes alone after the others. */
  async function applyAnswers(items: readonly AnswerItem[]) {
    const first: AnswerItem[] = [];
    const taken = new Set<string>();
    for (const item of items) {
      // Two orders of one trade may change together; its figures are written once a statement.
      const tradeKey = item.figures ? `trade ${item.seen.tradeId}` : undefined;
      if (taken.has(item.seen.id) || (tradeKey && taken.has(tradeKey))) continue;
      taken.add(item.seen.id);
      if (tradeKey) taken.add(tradeKey);
      first.push(item);
    }
    const written = new Map((await together(first, writeAnswers)).map((answer, i) => [first[i]!, answer]));
    const results = [];
    for (const item of items)
      results.push(
        written.has(item) ? written.get(item) : (await writeAnswers([item]).catch((e: Error) => [e]))[0],
      );
    return results;
  }

  const entryBatches = {
    relaxed: createBatchLoader((items: readonly EntryItem[]) => insertEntries(items, 'relaxed'), {
      maxBatchSize: MAX_BATCH,
    }),
    durable: createBatchLoader((items: readonly EntryItem[]) => insertEntries(items, 'durable'), {
      maxBatchSize: MAX_BATCH,
    }),
  };
  const answerBatches = createBatchLoader(applyAnswers, { maxBatchSize: MAX_BATCH });

  /**
   * First stops of open trades that have none yet, in one statement (one set meanwhile, by a user or a
   * supervision pass, stays); for each, whether it was set. Not flushed before the answer: a stop lost in a
   * crash is set again by the trade's supervision, which sets any stop still missing.
   */
  async function writeInitialStops(items: readonly { tradeId: string; price: string }[]) {
    const { rows } = (await db.execute(sql`
      UPDATE ${trades} t SET stop_loss_price = v.price, updated_at = now()
      FROM unnest(${sql.param(items.map((i) => i.tradeId))}::uuid[], ${sql.param(items.map((i) => i.price))}::numeric[])
        AS v(id, price)
      WHERE t.id = v.id AND t.status = 'open' AND t.stop_loss_price IS NULL AND ${relaxedCommit}
      RETURNING t.id`)) as unknown as { rows: { id: string }[] };
    const set = new Set(rows.map((r) => r.id));
    return items.map((i) => set.has(i.tradeId));
  }
  async function readOrdersByClientIds(
    keys: { accountId: string; clientOrderId: string }[],
  ): Promise<OrderRow[]> {
    if (keys.length === 0) return [];
    return db
      .select()
      .from(orders)
      .where(
        sql`(${orders.tradingAccountId}, ${orders.clientOrderId}) IN (SELECT * FROM unnest(
          ${sql.param(keys.map((k) => k.accountId))}::uuid[], ${sql.param(keys.map((k) => k.clientOrderId))}::text[]))`,
      );
  }
  const initialStopBatches = createBatchLoader(writeInitialStops, { maxBatchSize: MAX_BATCH });

  // The reads and writes supervision makes of every trade, in batches when many trades are supervised at
  // once (a fan-out's set-ups); a lone caller's goes out at once as before.
  const tradeWithOrdersBatches = createBatchLoader(
    async (ids: readonly string[]) => {
      // Alone: the prepared statement (planned once).
      const rows =
        ids.length === 1
          ? await hot.tradeWithOrders.execute({ tradeId: ids[0] })
          : await db
              .select({ trade: trades, order: orders })
              .from(trades)
              .leftJoin(orders, eq(orders.tradeId, trades.id))
              .where(inArray(trades.id, [...new Set(ids)]))
              .orderBy(orders.createdAt, sql`length(${orders.role})`, orders.role);
      const byTrade = new Map<string, { trade: TradeDbRow; orders: OrderRow[] }>();
      for (const r of rows) {
        const entry = byTrade.get(r.trade.id) ?? { trade: r.trade, orders: [] };
        if (r.order) entry.orders.push(r.order);
        byTrade.set(r.trade.id, entry);
      }
      return ids.map((id) => byTrade.get(id) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
  const fillsOfTradeBatches = createBatchLoader(
    async (ids: readonly string[]) => {
      const rows =
        ids.length === 1
          ? await hot.fillsOfTrade.execute({ tradeId: ids[0] })
          : await db
              .select({ fill: fills, side: orders.side, role: orders.role })
              .from(fills)
              .innerJoin(orders, eq(orders.id, fills.orderId))
              .where(inArray(fills.tradeId, [...new Set(ids)]))
              .orderBy(fills.at, sql`length(${orders.role})`, orders.role, fills.venueTradeId);
      const byTrade = new Map<string, TradeFillRow[]>();
      for (const r of rows) {
        const list = byTrade.get(r.fill.tradeId) ?? [];
        list.push({ ...r.fill, side: r.side, role: r.role });
        byTrade.set(r.fill.tradeId, list);
      }
      return ids.map((id) => byTrade.get(id) ?? []);
    },
    { maxBatchSize: MAX_BATCH },
  );
  /** Orders marked `submitted` (about to be sent), many in one statement. */
  const submittedBatches = createBatchLoader(
    async (ids: readonly string[]) => {
      const rows = await db
        .update(orders)
        .set({ status: 'submitted', ...NO_LAST_ERROR, updatedAt: new Date() })
        .where(inArray(orders.id, [...new Set(ids)]))
        .returning();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? new Error(`Order ${id} is gone`));
    },
    { maxBatchSize: MAX_BATCH },
  );
  /** Orders of many trades committed together; existing client order ids are kept. */
  const insertOrdersBatches = createBatchLoader(
    async (lists: readonly (typeof orders.$inferInsert)[][]) => {
      const all = lists.flat();
      const key = (o: { tradingAccountId: string; clientOrderId: string }) =>
        `${o.tradingAccountId} ${o.clientOrderId}`;
      const inserted = await db.insert(orders).values(all).onConflictDoNothing().returning();
      const known = new Map(inserted.map((o) => [key(o), o]));
      const missing = all.filter((o) => !known.has(key(o)));
      if (missing.length > 0)
        for (const o of await readOrdersByClientIds(
          missing.map((m) => ({ accountId: m.tradingAccountId, clientOrderId: m.clientOrderId })),
        ))
          known.set(key(o), o);
      return lists.map((list) => {
        const rows = list.map((o) => known.get(key(o)));
        return rows.every(Boolean) ? (rows as OrderRow[]) : new Error('An order was not written');
      });
    },
    { maxBatchSize: MAX_BATCH },
  );

  return {
    async findById(id: string): Promise<TradeDbRow | undefined> {
      const [row] = await db.select().from(trades).where(eq(trades.id, id));
      return row;
    },

    async findOpenForBot(botId: string): Promise<TradeDbRow | undefined> {
      const [row] = await db
        .select()
        .from(trades)
        .where(and(eq(trades.botId, botId), inArray(trades.status, ['open', 'closing'])));
      return row;
    },

    /** Orders by (account, client order id), any number in one read. */
    ordersByClientIds: readOrdersByClientIds,

    async findOrderByClientId(accountId: string, clientOrderId: string): Promise<OrderRow | undefined> {
      const [row] = await hot.orderByClientId.execute({ accountId, clientOrderId });
      return row;
    },

    /**
     * A new trade and its entry order in one statement (both or neither), committed before any venue
     * call. Returns undefined when the bot already holds an open trade, or the entry's client order id is
     * taken (unique indexes).
     */
    async createTradeWithEntry(
      trade: NewTrade,
      order: NewEntry,
      commit: CommitMode = 'durable',
    ): Promise<{ trade: TradeDbRow; order: OrderRow } | undefined> {
      try {
        return await this.insertTradeWithEntry({ ...trade, id: trade.id ?? randomUUID() }, order, commit);
      } catch (e) {
        if (
          isUniqueViolation(e, 'trades_one_open_per_bot_uq') ||
          isUniqueViolation(e, 'orders_client_order_id_uq')
        )
          return undefined;
        throw e;
      }
    },

    /** Inserts an order row unless its client order id exists; either way returns the row and whether it is new. */
    async insertOrder(values: typeof orders.$inferInsert): Promise<{ order: OrderRow; created: boolean }> {
      const [row] = await db.insert(orders).values(values).onConflictDoNothing().returning();
      if (row) return { order: row, created: true };
      const existing = await this.findOrderByClientId(values.tradingAccountId, values.clientOrderId);
      return { order: existing!, created: false };
    },

    async updateOrder(
      id: string,
      values: Partial<typeof orders.$inferInsert>,
      tx: DbOrTx = db,
    ): Promise<OrderRow> {
      // The mark every order gets before its venue call: batched across the orders sent at once.
      const marksSubmitted =
        Object.keys(values).length === 4 &&
        values.status === 'submitted' &&
        values.lastError === null &&
        values.lastErrorCode === null &&
        values.lastErrorParams === null;
      if (tx === db && marksSubmitted) return submittedBatches(id);
      const [row] = await tx
        .update(orders)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(orders.id, id))
        .returning();
      return row!;
    },

    /** Fills are keyed by the venue's trade id: the same fill seen twice is stored once. */
    async insertFills(rows: (typeof fills.$inferInsert)[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db.insert(fills).values(rows).onConflictDoNothing().returning({ id: fills.id });
      return inserted.length;
    },

    async ordersOfTrade(tradeId: string): Promise<OrderRow[]> {
      // A ladder's rows share one insert time: then tp1, tp2, … tp10 in ladder order.
      return db
        .select()
        .from(orders)
        .where(eq(orders.tradeId, tradeId))
        .orderBy(orders.createdAt, sql`length(${orders.role})`, orders.role);
    },

    fillsOfTrade(tradeId: string): Promise<TradeFillRow[]> {
      return fillsOfTradeBatches(tradeId);
    },

    /** A trade's figures (and, when given, the status, close time and reason its fills decide). */
    async setFigures(
      id: string,
      figures: TradeFigures,
      end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>,
    ): Promise<TradeDbRow> {
      const [row] = await hot.figures.execute({ tradeId: id, ...figuresParams(figures, end) });
      return row!;
    },

    /**
     * Changes a trade's columns; a status only by a move core's state table allows (checked in the statement,
     * so a concurrent close is never undone): an `InvalidTradeTransitionError` otherwise, nothing written.
     */
    async updateTrade(id: string, values: Partial<typeof trades.$inferInsert>): Promise<TradeDbRow> {
      const to = values.status;
      const [row] = await db
        .update(trades)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(trades.id, id), to ? statusWriteAllowed(sql`${trades.status}`, sql`${to}`) : undefined))
        .returning();
      if (!row && to) {
        const [current] = await db.select({ status: trades.status }).from(trades).where(eq(trades.id, id));
        if (current) throw new InvalidTradeTransitionError(current.status as TradeStatus, to as TradeStatus);
      }
      return row!;
    },

    /**
     * The first stop of an open trade that has none yet, written with those of other trades asked for
     * meanwhile (the fan-out's entries); whether it was set.
     */
    setInitialStop(tradeId: string, price: string): Promise<boolean> {
      return initialStopBatches({ tradeId, price });
    },

    /**
     * A trade and its entry order where the trade id is chosen by the caller (manual trades derive the
     * entry's client order id from it), in one transaction.
     */
    async insertTradeWithEntry(
      trade: NewTrade & { id: string },
      order: NewEntry,
      commit: CommitMode = 'durable',
    ): Promise<{ trade: TradeDbRow; order: OrderRow }> {
      return entryBatches[commit]({ trade, order });
    },

    async findOrderById(id: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      return row;
    },

    /**
     * Changes an order under a row lock: `decide` sees the row as committed now (not a stale copy) and
     * returns the change, or null to leave it. Concurrent appliers of venue news serialise here.
     */
    async updateOrderLocked(
      id: string,
      decide: (current: OrderRow) => Partial<typeof orders.$inferInsert> | null,
    ): Promise<OrderRow> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
        const change = decide(current!);
        if (!change) return current!;
        const [row] = await tx
          .update(orders)
          .set({ ...change, updatedAt: new Date() })
          .where(eq(orders.id, id))
          .returning();
        return row!;
      });
    },

    /** Several orders of one trade (a ladder) committed together before any is sent; existing ids are kept. */
    async insertOrders(values: (typeof orders.$inferInsert)[]): Promise<OrderRow[]> {
      if (values.length === 0) return [];
      return insertOrdersBatches(values);
    },

    /**
     * Changes an order only if it is still as `seen` (status, filled and price: what a change of venue
     * news is decided on), and stores `newFills` (deduped) in the same statement. Undefined when the
     * order moved meanwhile (the fills are stored all the same): decide again on the current row.
     */
    async updateOrderIfUnchanged(
      seen: Pick<OrderRow, 'id' | 'status' | 'filled' | 'price' | 'tradeId'>,
      values: OrderChange,
      newFills: (typeof fills.$inferInsert)[] = [],
    ): Promise<OrderRow | undefined> {
      return (await answerBatches({ seen, values, newFills }))?.order;
    },

    /**
     * `updateOrderIfUnchanged`, and the trade's figures those fills give (all of the trade's fills, the
     * caller knows) written in the same statement when the order's change is. Undefined when the order
     * moved meanwhile: the fills are stored, the trade is left as it was.
     */
    async updateOrderWithFigures(
      seen: Pick<OrderRow, 'id' | 'status' | 'filled' | 'price' | 'tradeId'>,
      values: OrderChange,
      newFills: (typeof fills.$inferInsert)[],
      figures: TradeFigures,
      end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>,
    ): Promise<{ order: OrderRow; trade: TradeDbRow } | undefined> {
      const answer = await answerBatches({ seen, values, newFills, figures, end });
      return answer?.trade ? { order: answer.order, trade: answer.trade } : undefined;
    },

    /**
     * A trade with its orders (in ladder order) in one read, then its fills: what the supervisor
     * decides on.
     */
    async tradeWithOrders(tradeId: string): Promise<{ trade: TradeDbRow; orders: OrderRow[] } | undefined> {
      return (await tradeWithOrdersBatches(tradeId)) ?? undefined;
    },

    /**
     * An order that reduces the trade's position (an exit attempt), committed as `commit` says before its
     * call. The order is kept when its client order id exists already: `created` says which.
     */
    async insertExitOrder(
      tradeId: string,
      values: Omit<typeof orders.$inferInsert, 'tradeId'>,
      commit: CommitMode = 'durable',
    ): Promise<{ order: OrderRow; created: boolean }> {
      const statement = commit === 'relaxed' ? hot.exitOrderRelaxed : hot.exitOrder;
      const [row] = await statement.execute({
        tradeId,
        userId: values.userId,
        accountId: values.tradingAccountId,
        clientOrderId: values.clientOrderId,
        role: values.role,
        symbol: values.symbol,
        side: values.side,
        type: values.type,
        reduceOnly: values.reduceOnly ?? false,
        amount: values.amount,
        status: values.status ?? 'new',
      });
      if (row) return { order: row, created: true };
      const existing = await this.findOrderByClientId(values.tradingAccountId, values.clientOrderId);
      return { order: existing!, created: false };
    },

    /** Sum of the venue's own stored fills of one order (inferred ones not counted: they await the venue's). */
    async filledOfOrder(orderId: string): Promise<string> {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${fills.amount}), 0)::text` })
        .from(fills)
        .where(and(eq(fills.orderId, orderId), eq(fills.inferred, false)));
      return row?.total ?? '0';
    },

    /**
     * The venue's fills of an order stored (deduped), and in the same transaction the order's inferred fill
     * made to hold exactly what they lack of its `filled` (at its average, else its limit price): replaced,
     * or removed once the venue listed everything. Returns how many of the venue's fills were new.
     */
    async settleOrderFills(
      order: Pick<OrderRow, 'id' | 'tradeId' | 'filled' | 'average' | 'price'>,
      listed: (typeof fills.$inferInsert)[],
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const added =
          listed.length > 0
            ? (await tx.insert(fills).values(listed).onConflictDoNothing().returning({ id: fills.id })).length
            : 0;
        const [{ total }] = (await tx
          .select({ total: sql<string>`coalesce(sum(${fills.amount}), 0)::text` })
          .from(fills)
          .where(and(eq(fills.orderId, order.id), eq(fills.inferred, false)))) as [{ total: string }];
        const missing = toDecimal(order.filled).minus(total);
        const price = order.average ?? order.price;
        await tx.delete(fills).where(and(eq(fills.orderId, order.id), eq(fills.inferred, true)));
        if (missing.gt(0) && price)
          await tx.insert(fills).values({
            orderId: order.id,
            tradeId: order.tradeId,
            venueTradeId: INFERRED_FILL_ID,
            price,
            amount: toNumericString(missing),
            fee: '0',
            feeCurrency: null,
            at: new Date(),
            inferred: true,
          });
        return added;
      });
    },

    /**
     * Orders of the account whose venue fills stored add up to less than their `filled`, terminal or not:
     * revisited until they do. Those holding an inferred fill (any age), and those of the last day with no
     * fill for part of `filled` (a crash between the order's answer and its fills).
     */
    async ordersMissingFills(accountId: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.tradingAccountId, accountId),
            isNotNull(orders.venueOrderId),
            sql`${orders.filled} > 0`,
            sql`(EXISTS (SELECT 1 FROM ${fills} f WHERE f.order_id = ${orders.id} AND f.inferred)
                OR (${orders.updatedAt} > now() - interval '1 day'
                  AND ${orders.filled} > (SELECT coalesce(sum(f.amount), 0) FROM ${fills} f
                    WHERE f.order_id = ${orders.id} AND NOT f.inferred)))`,
          ),
        );
    },

    /** Trades the engine still manages (open or closing), optionally of one account. */
    async activeTrades(accountId?: string): Promise<TradeDbRow[]> {
      return db
        .select()
        .from(trades)
        .where(
          and(
            inArray(trades.status, [...ACTIVE_TRADE_STATUSES]),
            accountId ? eq(trades.tradingAccountId, accountId) : sql`TRUE`,
          ),
        );
    },

    /** The active trades of these accounts (which trade holds each futures position). */
    async activeTradesOf(
      accountIds: readonly string[],
    ): Promise<Pick<TradeDbRow, 'id' | 'tradingAccountId' | 'symbol' | 'botId'>[]> {
      if (accountIds.length === 0) return [];
      return db
        .select({
          id: trades.id,
          tradingAccountId: trades.tradingAccountId,
          symbol: trades.symbol,
          botId: trades.botId,
        })
        .from(trades)
        .where(
          and(
            inArray(trades.tradingAccountId, [...accountIds]),
            inArray(trades.status, [...ACTIVE_TRADE_STATUSES]),
          ),
        );
    },

    /**
     * The account's trades whose funding is still to read (issue 19): those held now, and those closed since
     * the venue's funding history was last read for them (a payment just before the close is booked too).
     */
    async tradesAwaitingFunding(accountId: string): Promise<TradeDbRow[]> {
      return db
        .select()
        .from(trades)
        .where(
          and(
            eq(trades.tradingAccountId, accountId),
            sql`(${trades.status} IN (${sql.join(
              ACTIVE_TRADE_STATUSES.map((s) => sql`${s}`),
              sql`, `,
            )}) OR (${trades.status} = 'closed' AND ${trades.closedAt} IS NOT NULL
              AND (${trades.fundingCheckedAt} IS NULL OR ${trades.fundingCheckedAt} <= ${trades.closedAt})))`,
          ),
        );
    },

    /**
     * Books a trade's funding payments (deduped by the venue's payment id) and its total, read at
     * `checkedAt`; whether the total changed (its figures then need recomputing).
     */
    async bookFunding(
      tradeId: string,
      payments: Omit<typeof fundingPayments.$inferInsert, 'tradeId'>[],
      checkedAt: Date,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (payments.length > 0)
          await tx
            .insert(fundingPayments)
            .values(payments.map((p) => ({ ...p, tradeId })))
            .onConflictDoNothing();
        const [before] = await tx
          .select({ funding: trades.funding })
          .from(trades)
          .where(eq(trades.id, tradeId))
          .for('update');
        const [{ total }] = (await tx
          .select({ total: sql<string>`coalesce(sum(${fundingPayments.amount}), 0)::text` })
          .from(fundingPayments)
          .where(eq(fundingPayments.tradeId, tradeId))) as [{ total: string }];
        await tx
          .update(trades)
          .set({ funding: total, fundingCheckedAt: checkedAt })
          .where(eq(trades.id, tradeId));
        return !!before && !toDecimal(before.funding).eq(total);
      });
    },

    /**
     * Open trades with a stop-loss, their account, and whether their stop rests on the venue at that very
     * price (submitted, open or unknown: the watch leaves such a trade to the venue for a grace period).
     */
    async openTradesWithStops() {
      return db
        .select({
          trade: trades,
          account: tradingAccounts,
          restsOnVenue: sql<boolean>`EXISTS (SELECT 1 FROM ${venueStops} WHERE ${venueStops.tradeId} = ${trades.id}
            AND ${inArray(venueStops.status, [...LIVE_STOP_STATES])}
            AND ${venueStops.triggerPrice} = ${trades.stopLossPrice})`,
        })
        .from(trades)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, trades.tradingAccountId))
        .where(and(eq(trades.status, 'open'), isNotNull(trades.stopLossPrice)));
    },

    /**
     * Accounts with orders live at a venue or trades still managed: what reconciliation visits (never a
     * deleted one: its keys are gone).
     */
    async accountsToReconcile(): Promise<(typeof tradingAccounts.$inferSelect)[]> {
      const list = (values: readonly string[]) =>
        sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        );
      return db
        .select()
        .from(tradingAccounts)
        .where(
          sql`${tradingAccounts.archivedAt} IS NULL AND (
              EXISTS (SELECT 1 FROM ${orders} o WHERE o.trading_account_id = ${tradingAccounts.id}
                AND o.status IN ('new', ${list(LIVE_ORDER_STATES)}))
              OR EXISTS (SELECT 1 FROM ${trades} t WHERE t.trading_account_id = ${tradingAccounts.id}
                AND t.status IN (${list(ACTIVE_TRADE_STATUSES)}))
              OR (${tradingAccounts.marketType} = 'future' AND EXISTS (SELECT 1 FROM ${trades} t
                WHERE t.trading_account_id = ${tradingAccounts.id} AND t.status = 'closed'
                  AND (t.funding_checked_at IS NULL OR t.funding_checked_at <= t.closed_at)))
              OR EXISTS (SELECT 1 FROM ${fills} f JOIN ${orders} o ON o.id = f.order_id
                WHERE f.inferred AND o.trading_account_id = ${tradingAccounts.id})
              OR EXISTS (SELECT 1 FROM ${venueStops} WHERE ${venueStops.tradingAccountId} = ${tradingAccounts.id}
                AND ${inArray(venueStops.status, [...LIVE_STOP_STATES])}))`,
        );
    },

    /**
     * What each of these trades holds, as sums of its fills per side and fee currency (heldQuantity's input):
     * one statement for an account's open trades (the position check of reconciliation's sweeps).
     */
    async heldOfTrades(
      tradeIds: readonly string[],
    ): Promise<
      Map<string, { side: 'buy' | 'sell'; amount: string; fee: string; feeCurrency: string | null }[]>
    > {
      const out = new Map<
        string,
        { side: 'buy' | 'sell'; amount: string; fee: string; feeCurrency: string | null }[]
      >();
      if (tradeIds.length === 0) return out;
      const rows = await db
        .select({
          tradeId: fills.tradeId,
          side: orders.side,
          feeCurrency: fills.feeCurrency,
          amount: sql<string>`sum(${fills.amount})::text`,
          fee: sql<string>`sum(${fills.fee})::text`,
        })
        .from(fills)
        .innerJoin(orders, eq(orders.id, fills.orderId))
        .where(inArray(fills.tradeId, [...tradeIds]))
        .groupBy(fills.tradeId, orders.side, fills.feeCurrency);
      for (const r of rows) {
        const list = out.get(r.tradeId) ?? [];
        list.push({ side: r.side, amount: r.amount, fee: r.fee, feeCurrency: r.feeCurrency });
        out.set(r.tradeId, list);
      }
      return out;
    },

    /**
     * Symbols of the account with an order sent and not answered yet (`submitted`, `unknown`): its fills could
     * be anything, so the venue's position there is not compared this time.
     */
    async unansweredSymbols(accountId: string): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ symbol: orders.symbol })
        .from(orders)
        .where(and(eq(orders.tradingAccountId, accountId), inArray(orders.status, ['submitted', 'unknown'])));
      return new Set(rows.map((r) => r.symbol));
    },

    /**
     * The venue ids of every order of the account on the symbol created since `since` (less a day), and of the
     * orders its venue stops became: what is Kairos's among the venue's fills.
     */
    async knownVenueOrderIds(accountId: string, symbol: string, since: Date): Promise<Set<string>> {
      const from = new Date(since.getTime() - 86_400_000);
      const { rows } = await db.execute<{ id: string }>(
        sql`SELECT venue_order_id AS id FROM ${orders}
             WHERE trading_account_id = ${accountId} AND symbol = ${symbol} AND venue_order_id IS NOT NULL
               AND created_at >= ${from.toISOString()}
            UNION
            SELECT triggered_order_id AS id FROM ${venueStops}
             WHERE trading_account_id = ${accountId} AND symbol = ${symbol} AND triggered_order_id IS NOT NULL
               AND created_at >= ${from.toISOString()}`,
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * An exit made outside Kairos (closed by hand on the venue, liquidated), booked on the trade: one filled
     * order row per venue order (its client id derived from the trade and the venue's order id, so booking it
     * again changes nothing) with its fills, and the trade's close reason and note when given, in one
     * transaction. Returns how many order rows were new.
     */
    async bookOutsideExit(
      trade: Pick<TradeDbRow, 'id' | 'userId' | 'tradingAccountId' | 'symbol'>,
      exits: {
        clientOrderId: string;
        venueOrderId: string | null;
        role: string;
        side: 'buy' | 'sell';
        type: 'market' | 'limit';
        reduceOnly: boolean;
        amount: string;
        average: string;
        fills: Omit<typeof fills.$inferInsert, 'orderId' | 'tradeId'>[];
      }[],
      note: Partial<Pick<TradeDbRow, 'closeReason' | 'error' | 'errorCode' | 'errorParams'>>,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        let created = 0;
        for (const exit of exits) {
          const [row] = await tx
            .insert(orders)
            .values({
              tradeId: trade.id,
              userId: trade.userId,
              tradingAccountId: trade.tradingAccountId,
              clientOrderId: exit.clientOrderId,
              venueOrderId: exit.venueOrderId,
              role: exit.role,
              symbol: trade.symbol,
              side: exit.side,
              type: exit.type,
              reduceOnly: exit.reduceOnly,
              amount: exit.amount,
              filled: exit.amount,
              average: exit.average,
              status: 'filled',
            })
            .onConflictDoNothing()
            .returning({ id: orders.id });
          if (!row) continue;
          created += 1;
          if (exit.fills.length > 0)
            await tx
              .insert(fills)
              .values(exit.fills.map((f) => ({ ...f, orderId: row.id, tradeId: trade.id })))
              .onConflictDoNothing();
        }
        if (created > 0 && Object.keys(note).length > 0)
          await tx
            .update(trades)
            .set({ ...note, updatedAt: new Date() })
            .where(eq(trades.id, trade.id));
        return created;
      });
    },

    /** Removes an order row that never left (`new`): an intention dropped before any venue saw it. */
    async deleteUnsentOrder(id: string): Promise<void> {
      await db.delete(orders).where(and(eq(orders.id, id), eq(orders.status, 'new')));
    },

    /** Orders whose venue state is not final: what reconciliation re-reads. */
    async liveOrders(accountId?: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(
          and(
            inArray(orders.status, [...LIVE_ORDER_STATES]),
            accountId ? eq(orders.tradingAccountId, accountId) : sql`TRUE`,
          ),
        );
    },
  };
}

export type TradesRepo = ReturnType<typeof createTradesRepo>;
