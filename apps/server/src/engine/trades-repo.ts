import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  InvalidTradeTransitionError,
  LIVE_ORDER_STATES,
  TRADE_STATUS_WRITES,
  toDecimal,
  toNumericString,
  type TradeStatus,
} from '@kairos/core';
import { isUniqueViolation, prefixedColumns, relaxedCommit } from '../db/pg-fns';
import { createBatchLoader, mapLimited } from '../lib/batch-loader';
import type { Database, DbOrTx } from '../db/client';
import { bots, fills, orders, trades, tradingAccounts, venueStops } from '../db/schema/index';
import { LIVE_STOP_STATES } from './venue-stops-repo';

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
  'status' | 'venueOrderId' | 'filled' | 'average' | 'price' | 'lastError'
>;

/** The venue trade id of an order's inferred fill (one per order). */
export const INFERRED_FILL_ID = 'inferred';

/** Orders whose venue state is not final (core's list): what reconciliation re-reads. */
export { LIVE_ORDER_STATES };

export type TradeListFilters = {
  botId?: string;
  accountId?: string;
  symbol?: string;
  status?: TradeDbRow['status'];
  from?: Date;
  to?: Date;
};

const p = (name: string) => sql.placeholder(name);
/** A placeholder where Drizzle's `set` wants SQL (values go to the driver as they are). */
const setTo = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * Core's trade state table as SQL: whether a row at status `from` may be written status `to` (none given, the
 * same status, or a move the table allows). The statuses are core's own words, so they are written inline.
 */
const TRADE_WRITES = sql.raw(`ARRAY[${TRADE_STATUS_WRITES.map((w) => `'${w}'`).join(', ')}]::text[]`);
function statusWriteAllowed(from: SQL, to: SQL): SQL {
  return sql`(${to}::text IS NULL OR (${from}::text || '>' || ${to}::text) = ANY(${TRADE_WRITES}))`;
}
/** A trade's status, close time and reason change only when the state table allows the move (else they stay). */
function endColumn(column: string, table: string, to: SQL, value: SQL): SQL {
  const allowed = statusWriteAllowed(sql.raw(`${table}.status`), to);
  return sql`CASE WHEN ${allowed} THEN coalesce(${value}, ${sql.raw(`${table}.${column}`)}) ELSE ${sql.raw(`${table}.${column}`)} END`;
}

/** The figure columns `setFigures` writes (what a trade's fills decide). */
export type TradeFigures = Pick<
  TradeDbRow,
  'quantity' | 'entryPrice' | 'exitPrice' | 'entryNotional' | 'commission' | 'realisedPnl' | 'pnlPercent'
>;

/** Fills as arrays (one statement text for any number of them), deduped by venue trade id. */
function storedFillsCte(db: Database) {
  return db.$with('stored_fills', { one: sql<number>`1` }).as(
    sql`INSERT INTO ${fills} (order_id, trade_id, venue_trade_id, price, amount, fee, fee_currency, at)
        SELECT * FROM unnest(${p('fillOrderIds')}::uuid[], ${p('fillTradeIds')}::uuid[],
          ${p('fillVenueTradeIds')}::text[], ${p('fillPrices')}::numeric[], ${p('fillAmounts')}::numeric[],
          ${p('fillFees')}::numeric[], ${p('fillFeeCurrencies')}::text[], ${p('fillTimes')}::timestamptz[])
        ON CONFLICT DO NOTHING RETURNING 1 AS one`,
  );
}

/**
 * The batch forms of the two writes every bot of a fan-out makes (its trade with the entry, then the
 * venue's answer with the trade's figures): one statement for many bots, their rows as arrays (unnest).
 */
function batchStatements(db: Database) {
  const trade = prefixedColumns(trades, 't_');
  const order = prefixedColumns(orders, 'o_');
  const none = { one: sql<number>`1`.as('one') };
  const entriesInput = db.$with('input', none).as(
    sql`SELECT * FROM unnest(${p('ids')}::uuid[], ${p('userIds')}::uuid[], ${p('botIds')}::uuid[],
          ${p('accountIds')}::uuid[], ${p('strategyIds')}::uuid[], ${p('alertIds')}::uuid[], ${p('symbols')}::text[],
          ${p('sides')}::text[], ${p('takeProfits')}::jsonb[], ${p('stopLossPercents')}::numeric[],
          ${p('breakEvens')}::boolean[], ${p('clientOrderIds')}::text[], ${p('roles')}::text[],
          ${p('orderSides')}::text[], ${p('types')}::text[], ${p('prices')}::numeric[], ${p('amounts')}::numeric[],
          ${p('statuses')}::text[])
        AS i(id, user_id, bot_id, account_id, strategy_id, alert_id, symbol, side, take_profits,
             stop_loss_percent, break_even, client_order_id, role, order_side, type, price, amount, status)`,
  );
  const newTrades = db.$with('new_trades', trade.fields).as(
    sql`INSERT INTO ${trades} (id, user_id, bot_id, trading_account_id, strategy_id, alert_id, symbol, side,
          take_profits, stop_loss_percent, break_even_after_tp1)
        SELECT id, user_id, bot_id, account_id, strategy_id, alert_id, symbol, side, take_profits,
               stop_loss_percent, break_even FROM input
        RETURNING ${trade.returning()}`,
  );
  const newEntries = db.$with('new_entries', order.fields).as(
    sql`INSERT INTO ${orders} (trade_id, user_id, trading_account_id, client_order_id, role, symbol, side, type,
          price, amount, status)
        SELECT id, user_id, account_id, client_order_id, role, symbol, order_side, type, price, amount, status
        FROM input
        RETURNING ${order.returning()}`,
  );
  const tradesWithEntries = () =>
    db
      .with(entriesInput, newTrades, newEntries)
      .select()
      .from(newTrades)
      .innerJoin(newEntries, sql`${newEntries.tradeId} = ${newTrades.id}`);

  const answersInput = db.$with('answers', none).as(
    sql`SELECT * FROM unnest(${p('ids')}::uuid[], ${p('seenStatuses')}::text[], ${p('seenFilled')}::numeric[],
          ${p('seenPrices')}::numeric[], ${p('statuses')}::text[], ${p('venueOrderIds')}::text[],
          ${p('filled')}::numeric[], ${p('averages')}::numeric[], ${p('prices')}::numeric[],
          ${p('lastErrors')}::text[], ${p('tradeIds')}::uuid[], ${p('quantities')}::numeric[],
          ${p('entryPrices')}::numeric[], ${p('exitPrices')}::numeric[], ${p('entryNotionals')}::numeric[],
          ${p('commissions')}::numeric[], ${p('realisedPnls')}::numeric[], ${p('pnlPercents')}::numeric[],
          ${p('tradeStatuses')}::text[], ${p('closedAts')}::timestamptz[], ${p('closeReasons')}::text[])
        AS a(id, seen_status, seen_filled, seen_price, status, venue_order_id, filled, average, price, last_error,
             trade_id, quantity, entry_price, exit_price, entry_notional, commission, realised_pnl, pnl_percent,
             trade_status, closed_at, close_reason)`,
  );
  // Each order changes only if it is still as its caller saw it (see `updateOrderIfUnchanged`). The rows are
  // also named by `= ANY(ids)`: the plan then looks them up by key whatever the tables' statistics say (a
  // join with an unnest is otherwise planned as a scan of the whole table while they are new or stale).
  const changedOrders = db.$with('changed_orders', order.fields).as(
    sql`UPDATE ${orders} o SET status = a.status, venue_order_id = a.venue_order_id, filled = a.filled,
          average = a.average, price = a.price, last_error = a.last_error, updated_at = ${p('updatedAt')}
        FROM answers a
        WHERE o.id = ANY(${p('ids')}::uuid[]) AND o.id = a.id AND o.status = a.seen_status AND o.filled = a.seen_filled
          AND o.price IS NOT DISTINCT FROM a.seen_price
        RETURNING ${order.returning('o')}`,
  );
  const figuredTrades = db.$with('figured_trades', trade.fields).as(
    sql`UPDATE ${trades} t SET quantity = a.quantity, entry_price = a.entry_price, exit_price = a.exit_price,
          entry_notional = a.entry_notional, commission = a.commission, realised_pnl = a.realised_pnl,
          pnl_percent = a.pnl_percent,
          status = ${endColumn('status', 't', sql`a.trade_status`, sql`a.trade_status`)},
          closed_at = ${endColumn('closed_at', 't', sql`a.trade_status`, sql`a.closed_at`)},
          close_reason = ${endColumn('close_reason', 't', sql`a.trade_status`, sql`a.close_reason`)},
          updated_at = ${p('updatedAt')}
        FROM answers a
        WHERE t.id = ANY(${p('tradeIds')}::uuid[]) AND t.id = a.trade_id AND EXISTS (SELECT 1 FROM changed_orders c WHERE c."o_id" = a.id)
        RETURNING ${trade.returning('t')}`,
  );
  return {
    tradesWithEntries: tradesWithEntries().prepare('trades_trades_with_entries'),
    tradesWithEntriesRelaxed: tradesWithEntries()
      .where(relaxedCommit)
      .prepare('trades_trades_with_entries_relaxed'),
    answers: db
      .with(answersInput, changedOrders, storedFillsCte(db), figuredTrades)
      .select()
      .from(changedOrders)
      .leftJoin(figuredTrades, sql`${figuredTrades.id} = ${changedOrders.tradeId}`)
      .where(relaxedCommit)
      .prepare('trades_answers'),
  };
}

/**
 * The statements each bot of a fan-out runs, built once: building a query with Drizzle costs more CPU
 * than its round trip, and a fan-out over many bots is bound by this process' CPU.
 */
function prepareHotStatements(db: Database) {
  const orderChange = {
    status: setTo('status'),
    venueOrderId: setTo('venueOrderId'),
    filled: setTo('filled'),
    average: setTo('average'),
    price: setTo('price'),
    lastError: setTo('lastError'),
    updatedAt: setTo('updatedAt'),
  };
  // Status, close time and reason only when given (a figure may legitimately be null).
  const figuresChange = {
    quantity: setTo('quantity'),
    entryPrice: setTo('entryPrice'),
    exitPrice: setTo('exitPrice'),
    entryNotional: setTo('entryNotional'),
    commission: setTo('commission'),
    realisedPnl: setTo('realisedPnl'),
    pnlPercent: setTo('pnlPercent'),
    status: endColumn('status', 'trades', setTo('tradeStatus'), sql`${p('tradeStatus')}::text`),
    closedAt: endColumn('closed_at', 'trades', setTo('tradeStatus'), sql`${p('closedAt')}::timestamptz`),
    closeReason: endColumn('close_reason', 'trades', setTo('tradeStatus'), sql`${p('closeReason')}::text`),
    updatedAt: setTo('updatedAt'),
  };
  const orderUnchanged = and(
    eq(orders.id, p('id')),
    sql`${orders.status} = ${p('seenStatus')}`,
    sql`${orders.filled} = ${p('seenFilled')}::numeric`,
    sql`${orders.price} IS NOT DISTINCT FROM ${p('seenPrice')}::numeric`,
  );
  const changedOrder = db
    .$with('changed_order')
    .as(db.update(orders).set(orderChange).where(orderUnchanged).returning());
  const storedFills = storedFillsCte(db);
  const exitOrder = db.$with('exit_order').as(
    db
      .insert(orders)
      .values({
        tradeId: p('tradeId'),
        userId: p('userId'),
        tradingAccountId: p('accountId'),
        clientOrderId: p('clientOrderId'),
        role: p('role'),
        symbol: p('symbol'),
        side: p('side'),
        type: p('type'),
        reduceOnly: p('reduceOnly'),
        amount: p('amount'),
        status: p('status'),
      })
      .onConflictDoNothing()
      .returning(),
  );
  return {
    orderByClientId: db
      .select()
      .from(orders)
      .where(and(eq(orders.tradingAccountId, p('accountId')), eq(orders.clientOrderId, p('clientOrderId'))))
      .prepare('trades_order_by_client_id'),
    orderIfUnchanged: db
      .update(orders)
      .set(orderChange)
      .where(and(orderUnchanged, relaxedCommit))
      .returning()
      .prepare('trades_order_if_unchanged'),
    orderIfUnchangedWithFills: db
      .with(changedOrder, storedFills)
      .select()
      .from(changedOrder)
      .where(relaxedCommit)
      .prepare('trades_order_if_unchanged_with_fills'),
    tradeWithOrders: db
      .select({ trade: trades, order: orders })
      .from(trades)
      .leftJoin(orders, eq(orders.tradeId, trades.id))
      .where(eq(trades.id, p('tradeId')))
      .orderBy(orders.createdAt, sql`length(${orders.role})`, orders.role)
      .prepare('trades_trade_with_orders'),
    fillsOfTrade: db
      .select({ fill: fills, side: orders.side, role: orders.role })
      .from(fills)
      .innerJoin(orders, eq(orders.id, fills.orderId))
      .where(eq(fills.tradeId, p('tradeId')))
      .orderBy(fills.at, sql`length(${orders.role})`, orders.role, fills.venueTradeId)
      .prepare('trades_fills_of_trade'),
    exitOrder: db.with(exitOrder).select().from(exitOrder).prepare('trades_exit_order'),
    exitOrderRelaxed: db
      .with(exitOrder)
      .select()
      .from(exitOrder)
      .where(relaxedCommit)
      .prepare('trades_exit_order_relaxed'),
    figures: db
      .update(trades)
      .set(figuresChange)
      .where(eq(trades.id, p('tradeId')))
      .returning()
      .prepare('trades_figures'),
    botOutUnlessTrading: db
      .update(bots)
      .set({ position: 'out', updatedAt: setTo('updatedAt') })
      .where(
        and(
          eq(bots.id, p('botId')),
          sql`${bots.position} <> 'out'`,
          sql`NOT EXISTS (SELECT 1 FROM ${trades} t WHERE t.bot_id = ${bots.id} AND t.status IN ('open', 'closing'))`,
          relaxedCommit,
        ),
      )
      .prepare('trades_bot_out_unless_trading'),
  };
}

function orderChangeParams(seen: Pick<OrderRow, 'id' | 'status' | 'filled' | 'price'>, values: OrderChange) {
  return {
    id: seen.id,
    seenStatus: seen.status,
    seenFilled: seen.filled,
    seenPrice: seen.price,
    ...values,
    updatedAt: new Date(),
  };
}

/** Fills as the arrays `storedFills` takes. */
function fillsParams(rows: (typeof fills.$inferInsert)[]) {
  return {
    fillOrderIds: rows.map((f) => f.orderId),
    fillTradeIds: rows.map((f) => f.tradeId),
    fillVenueTradeIds: rows.map((f) => f.venueTradeId),
    fillPrices: rows.map((f) => f.price),
    fillAmounts: rows.map((f) => f.amount),
    fillFees: rows.map((f) => f.fee ?? '0'),
    fillFeeCurrencies: rows.map((f) => f.feeCurrency ?? null),
    fillTimes: rows.map((f) => f.at),
  };
}

function figuresParams(figures: TradeFigures, end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>) {
  return {
    ...figures,
    tradeStatus: end?.status ?? null,
    closedAt: end?.closedAt ?? null,
    closeReason: end?.closeReason ?? null,
    updatedAt: new Date(),
  };
}

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
  figures: TradeFigures;
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
      tradeIds: column((i) => i.seen.tradeId),
      quantities: column((i) => i.figures.quantity),
      entryPrices: column((i) => i.figures.entryPrice),
      exitPrices: column((i) => i.figures.exitPrice),
      entryNotionals: column((i) => i.figures.entryNotional),
      commissions: column((i) => i.figures.commission),
      realisedPnls: column((i) => i.figures.realisedPnl),
      pnlPercents: column((i) => i.figures.pnlPercent),
      tradeStatuses: column((i) => i.end?.status ?? null),
      closedAts: column((i) => i.end?.closedAt ?? null),
      closeReasons: column((i) => i.end?.closeReason ?? null),
      updatedAt: new Date(),
      ...fillsParams(items.flatMap((i) => i.newFills)),
    });
    const byOrder = new Map(rows.map((r) => [r.changed_orders.id, r]));
    return items.map((i) => {
      const row = byOrder.get(i.seen.id);
      // A left join's missing side comes back as an object of nulls (the CTE's fields are SQL, not columns).
      return row?.figured_trades?.id ? { order: row.changed_orders, trade: row.figured_trades } : undefined;
    });
  }

  /** Answers asked for together; a second one for the same order or trade goes alone after the others. */
  async function applyAnswers(items: readonly AnswerItem[]) {
    const first: AnswerItem[] = [];
    const taken = new Set<string>();
    for (const item of items) {
      if (taken.has(item.seen.id) || taken.has(item.seen.tradeId)) continue;
      taken.add(item.seen.id).add(item.seen.tradeId);
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
  const initialStopBatches = createBatchLoader(writeInitialStops, { maxBatchSize: MAX_BATCH });

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
    async ordersByClientIds(keys: { accountId: string; clientOrderId: string }[]): Promise<OrderRow[]> {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(orders)
        .where(
          sql`(${orders.tradingAccountId}, ${orders.clientOrderId}) IN (SELECT * FROM unnest(
            ${sql.param(keys.map((k) => k.accountId))}::uuid[], ${sql.param(keys.map((k) => k.clientOrderId))}::text[]))`,
        );
    },

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

    async fillsOfTrade(tradeId: string): Promise<TradeFillRow[]> {
      const rows = await hot.fillsOfTrade.execute({ tradeId });
      return rows.map((r) => ({ ...r.fill, side: r.side, role: r.role }));
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

    async setBotPosition(botId: string, position: 'long' | 'short' | 'out'): Promise<void> {
      await db.update(bots).set({ position, updatedAt: new Date() }).where(eq(bots.id, botId));
    },

    /**
     * Several bots' positions in one statement. A position that comes with a trade is only taken while
     * that trade is still open (one that ended meanwhile already set its bot out).
     */
    async setBotPositions(
      changes: { botId: string; position: 'long' | 'short' | 'out'; tradeId: string | null }[],
    ): Promise<void> {
      if (changes.length === 0) return;
      const values = sql.join(
        changes.map((c) => sql`(${c.botId}::uuid, ${c.position}, ${c.tradeId}::uuid)`),
        sql`, `,
      );
      await db.execute(sql`
        UPDATE ${bots} SET position = v.position, updated_at = now()
        FROM (VALUES ${values}) AS v(bot_id, position, trade_id)
        WHERE ${bots.id} = v.bot_id
          AND (v.trade_id IS NULL OR EXISTS (
            SELECT 1 FROM ${trades} t WHERE t.id = v.trade_id AND t.status IN ('open', 'closing')))`);
    },

    /** A trade only when it belongs to `userId` (another user's id finds nothing). */
    async findOwned(userId: string, id: string): Promise<TradeDbRow | undefined> {
      const [row] = await db
        .select()
        .from(trades)
        .where(and(eq(trades.id, id), eq(trades.userId, userId)));
      return row;
    },

    /** The user's trades, newest first, filtered and paged. */
    async listOwned(userId: string, filters: TradeListFilters, page: number, pageSize: number) {
      const where: SQL[] = [eq(trades.userId, userId)];
      if (filters.botId) where.push(eq(trades.botId, filters.botId));
      if (filters.accountId) where.push(eq(trades.tradingAccountId, filters.accountId));
      if (filters.symbol) where.push(eq(trades.symbol, filters.symbol));
      if (filters.status) where.push(eq(trades.status, filters.status));
      if (filters.from) where.push(gte(trades.openedAt, filters.from));
      if (filters.to) where.push(lte(trades.openedAt, filters.to));
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(trades)
          .where(and(...where))
          .orderBy(desc(trades.openedAt), desc(trades.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: count() })
          .from(trades)
          .where(and(...where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Deletes the user's trade (orders and fills go with it); false when there was none. */
    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(trades)
        .where(and(eq(trades.id, id), eq(trades.userId, userId)))
        .returning({ id: trades.id });
      return deleted.length > 0;
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
      const inserted = await db.insert(orders).values(values).onConflictDoNothing().returning();
      if (inserted.length === values.length) return inserted;
      return db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.tradingAccountId, values[0]!.tradingAccountId),
            inArray(
              orders.clientOrderId,
              values.map((v) => v.clientOrderId),
            ),
          ),
        );
    },

    /**
     * Changes an order only if it is still as `seen` (status, filled and price: what a change of venue
     * news is decided on), and stores `newFills` (deduped) in the same statement. Undefined when the
     * order moved meanwhile (the fills are stored all the same): decide again on the current row.
     */
    async updateOrderIfUnchanged(
      seen: Pick<OrderRow, 'id' | 'status' | 'filled' | 'price'>,
      values: OrderChange,
      newFills: (typeof fills.$inferInsert)[] = [],
    ): Promise<OrderRow | undefined> {
      const params = { ...orderChangeParams(seen, values), ...fillsParams(newFills) };
      if (newFills.length === 0) return (await hot.orderIfUnchanged.execute(params))[0];
      const [row] = await hot.orderIfUnchangedWithFills.execute(params);
      return row;
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
      return answerBatches({ seen, values, newFills, figures, end });
    },

    /**
     * A trade with its orders (in ladder order) in one read, then its fills: what the supervisor
     * decides on.
     */
    async tradeWithOrders(tradeId: string): Promise<{ trade: TradeDbRow; orders: OrderRow[] } | undefined> {
      const rows = await hot.tradeWithOrders.execute({ tradeId });
      if (rows.length === 0) return undefined;
      return { trade: rows[0]!.trade, orders: rows.flatMap((r) => (r.order ? [r.order] : [])) };
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
            inArray(trades.status, ['open', 'closing']),
            accountId ? eq(trades.tradingAccountId, accountId) : sql`TRUE`,
          ),
        );
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

    /** Accounts with orders live at a venue or trades still managed: what reconciliation visits. */
    async accountsToReconcile(): Promise<(typeof tradingAccounts.$inferSelect)[]> {
      return db
        .select()
        .from(tradingAccounts)
        .where(
          sql`EXISTS (SELECT 1 FROM ${orders} o WHERE o.trading_account_id = ${tradingAccounts.id}
                AND o.status IN ('new', 'submitted', 'open', 'partially_filled', 'unknown'))
              OR EXISTS (SELECT 1 FROM ${trades} t WHERE t.trading_account_id = ${tradingAccounts.id}
                AND t.status IN ('open', 'closing'))
              OR EXISTS (SELECT 1 FROM ${fills} f JOIN ${orders} o ON o.id = f.order_id
                WHERE f.inferred AND o.trading_account_id = ${tradingAccounts.id})
              OR EXISTS (SELECT 1 FROM ${venueStops} WHERE ${venueStops.tradingAccountId} = ${tradingAccounts.id}
                AND ${inArray(venueStops.status, [...LIVE_STOP_STATES])})`,
        );
    },

    /** Removes an order row that never left (`new`): an intention dropped before any venue saw it. */
    async deleteUnsentOrder(id: string): Promise<void> {
      await db.delete(orders).where(and(eq(orders.id, id), eq(orders.status, 'new')));
    },

    /** The bot is out once it holds no active trade (a late event for an old trade changes nothing). */
    async setBotOutUnlessTrading(botId: string): Promise<void> {
      await hot.botOutUnlessTrading.execute({ botId, updatedAt: new Date() });
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
