import { and, eq, sql, type SQL } from 'drizzle-orm';
import { TRADE_STATUS_WRITES } from '@kairos/core';
import { prefixedColumns, relaxedCommit } from '../db/pg-fns';
import type { Database } from '../db/client';
import { fills, orders, trades } from '../db/schema/index';
import type { TradeDbRow, TradeFigures } from './trades-repo';

/**
 * The trades repo's statements: prepared once per process, each writing what a batch of the engine's work
 * changes (trades with their entries, orders' answers with the figures they give, fills) in one round trip.
 */
const p = (name: string) => sql.placeholder(name);
/** A placeholder where Drizzle's `set` wants SQL (values go to the driver as they are). */
const setTo = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * Core's trade state table as SQL: whether a row at status `from` may be written status `to` (none given, the
 * same status, or a move the table allows). The statuses are core's own words, so they are written inline.
 */
const TRADE_WRITES = sql.raw(`ARRAY[${TRADE_STATUS_WRITES.map((w) => `'${w}'`).join(', ')}]::text[]`);
export function statusWriteAllowed(from: SQL, to: SQL): SQL {
  return sql`(${to}::text IS NULL OR (${from}::text || '>' || ${to}::text) = ANY(${TRADE_WRITES}))`;
}
/** A trade's status, close time and reason change only when the state table allows the move (else they stay). */
function endColumn(column: string, table: string, to: SQL, value: SQL): SQL {
  const allowed = statusWriteAllowed(sql.raw(`${table}.status`), to);
  return sql`CASE WHEN ${allowed} THEN coalesce(${value}, ${sql.raw(`${table}.${column}`)}) ELSE ${sql.raw(`${table}.${column}`)} END`;
}

/** The figure columns `setFigures` writes (what a trade's fills decide). */
function storedFillsCte(db: Database) {
  return db.$with('stored_fills', { one: sql<number>`1` }).as(
    sql`INSERT INTO ${fills} (order_id, trade_id, venue_trade_id, price, amount, fee, fee_currency, fee_rate, at)
        SELECT * FROM unnest(${p('fillOrderIds')}::uuid[], ${p('fillTradeIds')}::uuid[],
          ${p('fillVenueTradeIds')}::text[], ${p('fillPrices')}::numeric[], ${p('fillAmounts')}::numeric[],
          ${p('fillFees')}::numeric[], ${p('fillFeeCurrencies')}::text[], ${p('fillFeeRates')}::numeric[],
          ${p('fillTimes')}::timestamptz[])
        ON CONFLICT DO NOTHING RETURNING 1 AS one`,
  );
}

/**
 * The batch forms of the two writes every bot of a fan-out makes (its trade with the entry, then the
 * venue's answer with the trade's figures): one statement for many bots, their rows as arrays (unnest).
 */
export function batchStatements(db: Database) {
  const trade = prefixedColumns(trades, 't_');
  const order = prefixedColumns(orders, 'o_');
  const none = { one: sql<number>`1`.as('one') };
  const entriesInput = db.$with('input', none).as(
    sql`SELECT * FROM unnest(${p('ids')}::uuid[], ${p('userIds')}::uuid[], ${p('botIds')}::uuid[],
          ${p('accountIds')}::uuid[], ${p('strategyIds')}::uuid[], ${p('alertIds')}::uuid[], ${p('symbols')}::text[],
          ${p('sides')}::text[], ${p('takeProfits')}::jsonb[], ${p('stopLossPercents')}::numeric[],
          ${p('breakEvens')}::boolean[], ${p('clientOrderIds')}::text[], ${p('roles')}::text[],
          ${p('orderSides')}::text[], ${p('types')}::text[], ${p('prices')}::numeric[], ${p('amounts')}::numeric[],
          ${p('statuses')}::text[], ${p('leverages')}::numeric[],
          ${p('stopLimitOffsets')}::numeric[])
        AS i(id, user_id, bot_id, account_id, strategy_id, alert_id, symbol, side, take_profits,
             stop_loss_percent, break_even, client_order_id, role, order_side, type, price, amount, status,
             leverage_percent, stop_limit_offset_percent)`,
  );
  const newTrades = db.$with('new_trades', trade.fields).as(
    sql`INSERT INTO ${trades} (id, user_id, bot_id, trading_account_id, strategy_id, alert_id, symbol, side,
          take_profits, stop_loss_percent, break_even_after_tp1, leverage_percent, stop_limit_offset_percent)
        SELECT id, user_id, bot_id, account_id, strategy_id, alert_id, symbol, side, take_profits,
               stop_loss_percent, break_even, leverage_percent, stop_limit_offset_percent FROM input
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
          ${p('lastErrors')}::text[], ${p('lastErrorCodes')}::text[], ${p('lastErrorParams')}::text[],
          ${p('tradeIds')}::uuid[], ${p('quantities')}::numeric[],
          ${p('entryPrices')}::numeric[], ${p('exitPrices')}::numeric[], ${p('entryNotionals')}::numeric[],
          ${p('commissions')}::numeric[], ${p('realisedPnls')}::numeric[], ${p('pnlPercents')}::numeric[],
          ${p('tradeStatuses')}::text[], ${p('closedAts')}::timestamptz[], ${p('closeReasons')}::text[])
        AS a(id, seen_status, seen_filled, seen_price, status, venue_order_id, filled, average, price, last_error,
             last_error_code, last_error_params, trade_id, quantity, entry_price, exit_price, entry_notional,
             commission, realised_pnl, pnl_percent,
             trade_status, closed_at, close_reason)`,
  );
  // Each order changes only if it is still as its caller saw it (see `updateOrderIfUnchanged`). The rows are
  // also named by `= ANY(ids)`: the plan then looks them up by key whatever the tables' statistics say (a
  // join with an unnest is otherwise planned as a scan of the whole table while they are new or stale).
  const changedOrders = db.$with('changed_orders', order.fields).as(
    sql`UPDATE ${orders} o SET status = a.status, venue_order_id = a.venue_order_id, filled = a.filled,
          average = a.average, price = a.price, last_error = a.last_error, last_error_code = a.last_error_code,
          last_error_params = a.last_error_params::jsonb, updated_at = ${p('updatedAt')}
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
export function prepareHotStatements(db: Database) {
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
  };
}

/** Fills as the arrays `storedFills` takes. */
export function fillsParams(rows: (typeof fills.$inferInsert)[]) {
  return {
    fillOrderIds: rows.map((f) => f.orderId),
    fillTradeIds: rows.map((f) => f.tradeId),
    fillVenueTradeIds: rows.map((f) => f.venueTradeId),
    fillPrices: rows.map((f) => f.price),
    fillAmounts: rows.map((f) => f.amount),
    fillFees: rows.map((f) => f.fee ?? '0'),
    fillFeeCurrencies: rows.map((f) => f.feeCurrency ?? null),
    fillFeeRates: rows.map((f) => f.feeRate ?? null),
    fillTimes: rows.map((f) => f.at),
  };
}

export function figuresParams(
  figures: TradeFigures,
  end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>,
) {
  return {
    ...figures,
    tradeStatus: end?.status ?? null,
    closedAt: end?.closedAt ?? null,
    closeReason: end?.closeReason ?? null,
    updatedAt: new Date(),
  };
}
