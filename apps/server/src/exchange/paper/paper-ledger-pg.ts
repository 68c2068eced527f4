import { and, asc, eq, getTableColumns, gte, inArray } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-fns';
import {
  paperBalances,
  paperFills,
  paperFunding,
  paperOrders,
  paperPositions,
  paperStops,
} from '../../db/schema/paper';
import {
  DuplicateClientOrderIdError,
  type PaperBalanceRow,
  type PaperFillRow,
  type PaperFundingRow,
  type PaperLedger,
  type PaperLedgerReader,
  type PaperLedgerStore,
  type PaperLedgerWrites,
  type PaperOrderRow,
  type PaperPositionRow,
  type PaperStopRow,
  type PreparedAccount,
} from './paper-ledger-store';

/** Advisory-lock class of paper ledgers (the object id is the account id's hash). */
export const PAPER_LEDGER_LOCK_CLASS = 724_311_101;
const OPEN_STATUSES = ['open', 'partially_filled'] as const;

/** numeric → canonical decimal string ('1.500000000000000000' → '1.5'). */
function canonical(value: string): string {
  if (!value.includes('.')) return value;
  const trimmed = value.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

type OrderRecord = typeof paperOrders.$inferSelect;
type FillRecord = typeof paperFills.$inferSelect;
type PositionRecord = typeof paperPositions.$inferSelect;
type StopRecord = typeof paperStops.$inferSelect;

function toOrderRow(record: OrderRecord): PaperOrderRow {
  return {
    venueOrderId: record.venueOrderId,
    clientOrderId: record.clientOrderId,
    marketType: record.marketType,
    symbol: record.symbol,
    side: record.side,
    type: record.type,
    price: record.price === null ? null : canonical(record.price),
    amount: canonical(record.amount),
    filled: canonical(record.filled),
    cost: canonical(record.cost),
    fee: canonical(record.fee),
    feeCurrency: record.feeCurrency,
    status: record.status,
    reduceOnly: record.reduceOnly,
    reservedAsset: record.reservedAsset,
    reserved: canonical(record.reserved),
    createdAt: record.createdAt.getTime(),
    updatedAt: record.updatedAt.getTime(),
    checkedUntil: record.checkedUntil.getTime(),
  };
}

function toFillRow(record: FillRecord): PaperFillRow {
  return {
    venueTradeId: record.venueTradeId,
    venueOrderId: record.venueOrderId,
    marketType: record.marketType,
    symbol: record.symbol,
    side: record.side,
    price: canonical(record.price),
    amount: canonical(record.amount),
    cost: canonical(record.cost),
    fee: canonical(record.fee),
    feeCurrency: record.feeCurrency,
    takerOrMaker: record.takerOrMaker,
    realizedPnl: canonical(record.realizedPnl),
    timestamp: record.executedAt.getTime(),
  };
}

/**
 * A stop as read: its row and the price of the order it names (`triggered_order_id`): a stop-limit's limit
 * price; null for a stop-market (none yet, or a market order).
 */
type StopRead = StopRecord & { limitPrice: string | null };

/** The columns of a stop read with Drizzle (`StopRead`): joined to the order it names. */
const STOP_READ = { ...getTableColumns(paperStops), limitPrice: paperOrders.price };

function toStopRow(record: StopRead): PaperStopRow {
  return {
    venueOrderId: record.venueOrderId,
    clientOrderId: record.clientOrderId,
    marketType: record.marketType,
    symbol: record.symbol,
    side: record.side,
    amount: canonical(record.amount),
    triggerPrice: canonical(record.triggerPrice),
    limitPrice: record.limitPrice === null ? null : canonical(record.limitPrice),
    status: record.status,
    triggeredOrderId: record.triggeredOrderId,
    createdAt: record.createdAt.getTime(),
    updatedAt: record.updatedAt.getTime(),
    checkedUntil: record.checkedUntil.getTime(),
  };
}

function toPositionRow(record: PositionRecord): PaperPositionRow {
  return {
    symbol: record.symbol,
    amount: canonical(record.amount),
    entryPrice: canonical(record.entryPrice),
    leverage: record.leverage,
    marginMode: record.marginMode,
    margin: canonical(record.margin),
    updatedAt: record.updatedAt.getTime(),
  };
}

/** Drizzle on the pool (reads) or on the transaction's client: the query builder only (no relational schema). */
type LedgerDb = Pick<NodePgDatabase, 'select' | 'insert' | 'update'>;

/** What the hot statements run on: the pool (reads) or the transaction's client. */
type Queryable = Pick<pg.Pool, 'query'>;

/**
 * The statements every paper order runs (the balances a sizing reads, the placing read, the write) are
 * plain SQL as named prepared statements, for one account or many: parsed and planned once per connection,
 * with arrays (unnest) so the text is the same whatever the number of rows. The rest goes through Drizzle.
 */
/**
 * What placing orders reads, for one order or many: each order's client id taken by (the venue order id
 * using it; 'o' rows, by ordinality), then the balances of their accounts ('b' rows).
 */
const PREPARE_ORDERS_SQL = `
  SELECT 'o' AS kind, i.ord::int AS ord, NULL::uuid AS account_id,
         (SELECT venue_order_id FROM paper_orders p WHERE p.account_id = i.account_id
            AND p.client_order_id = i.client_order_id) AS taken_by,
         NULL::text AS asset, NULL::text AS free, NULL::text AS used
  FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS i(account_id, client_order_id, ord)
  UNION ALL
  SELECT 'b', NULL, b.account_id, NULL, b.asset, b.free::text, b.used::text
  FROM paper_balances b WHERE b.account_id = ANY($1::uuid[])`;

/**
 * What a matching pass starts from, in one read: an account's resting orders ('o' rows, as `OrderRecord`s)
 * and its open stops ('s' rows, as `StopRead`s: a stop-limit's limit price in `price`), each oldest first. One
 * statement, so the pass over an account without stops (most of them) costs no more than before stops existed.
 */
const RESTING_SQL = `
  SELECT 'o' AS kind, seq, venue_order_id AS "venueOrderId", client_order_id AS "clientOrderId",
         market_type AS "marketType", symbol, side, type, price::text AS price, amount::text AS amount,
         filled::text AS filled, cost::text AS cost, fee::text AS fee, fee_currency AS "feeCurrency", status,
         reduce_only AS "reduceOnly", reserved_asset AS "reservedAsset", reserved::text AS reserved,
         NULL::text AS "triggerPrice", NULL::text AS "triggeredOrderId",
         created_at AS "createdAt", updated_at AS "updatedAt", checked_until AS "checkedUntil"
  FROM paper_orders
  WHERE account_id = $1 AND status IN ('open', 'partially_filled')
  UNION ALL
  SELECT 's', s.seq, s.venue_order_id, s.client_order_id, s.market_type, s.symbol, s.side, NULL,
         (SELECT o.price::text FROM paper_orders o WHERE o.venue_order_id = s.triggered_order_id), s.amount::text,
         NULL, NULL, NULL, NULL, s.status, NULL, NULL, NULL, s.trigger_price::text, s.triggered_order_id,
         s.created_at, s.updated_at, s.checked_until
  FROM paper_stops s
  WHERE s.account_id = $1 AND s.status = 'open'
  ORDER BY kind, seq`;

/**
 * What placing stops reads first (`PaperLedgerBatch.prepareStops`), for any number of stops in one statement:
 * the stop already using each one's client id ('t' rows, by ordinality), and their accounts' resting orders
 * ('o') and open stops ('s'), as `RESTING_SQL` lists them, each with its account.
 */
const PREPARE_STOPS_SQL = `
  SELECT 'o' AS kind, NULL::int AS ord, account_id AS "accountId", seq, venue_order_id AS "venueOrderId",
         client_order_id AS "clientOrderId", market_type AS "marketType", symbol, side, type, price::text AS price,
         amount::text AS amount, filled::text AS filled, cost::text AS cost, fee::text AS fee,
         fee_currency AS "feeCurrency", status, reduce_only AS "reduceOnly", reserved_asset AS "reservedAsset",
         reserved::text AS reserved, NULL::text AS "triggerPrice", NULL::text AS "triggeredOrderId",
         created_at AS "createdAt", updated_at AS "updatedAt", checked_until AS "checkedUntil"
  FROM paper_orders
  WHERE account_id = ANY($3::uuid[]) AND status IN ('open', 'partially_filled')
  UNION ALL
  SELECT CASE WHEN i.ord IS NULL THEN 's' ELSE 't' END, i.ord::int, s.account_id, s.seq, s.venue_order_id,
         s.client_order_id, s.market_type, s.symbol, s.side, NULL,
         (SELECT o.price::text FROM paper_orders o WHERE o.venue_order_id = s.triggered_order_id), s.amount::text,
         NULL, NULL, NULL, NULL, s.status, NULL, NULL, NULL, s.trigger_price::text, s.triggered_order_id,
         s.created_at, s.updated_at, s.checked_until
  FROM paper_stops s
  LEFT JOIN unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS i(account_id, client_order_id, ord)
    ON i.account_id = s.account_id AND i.client_order_id = s.client_order_id
  WHERE s.account_id = ANY($3::uuid[]) AND (s.status = 'open' OR i.ord IS NOT NULL)
  ORDER BY kind, seq`;

/** The balances ('b' rows) and position rows ('p') of several accounts, in one statement. */
const BALANCES_AND_POSITIONS_SQL = `
  SELECT 'b' AS kind, account_id, asset AS key, free::text AS a, used::text AS b, NULL::text AS c, NULL::int AS leverage,
         NULL::text AS margin_mode, NULL::timestamptz AS updated_at
  FROM paper_balances WHERE account_id = ANY($1::uuid[])
  UNION ALL
  SELECT 'p', account_id, symbol, amount::text, entry_price::text, margin::text, leverage, margin_mode, updated_at
  FROM paper_positions WHERE account_id = ANY($1::uuid[])
  ORDER BY kind, account_id, key`;

/**
 * Whether an account has orders or stops resting, or a futures position with funding to settle (unchanged since
 * before $2, the last funding time).
 */
const BUSY_SQL = `
  SELECT EXISTS (SELECT 1 FROM paper_orders WHERE account_id = $1 AND status IN ('open', 'partially_filled'))
      OR EXISTS (SELECT 1 FROM paper_stops WHERE account_id = $1 AND status = 'open')
      OR EXISTS (SELECT 1 FROM paper_positions WHERE account_id = $1 AND amount <> 0 AND updated_at < $2) AS busy`;

/**
 * Accounts' balances, with whether each has orders or stops resting or a futures position with funding to
 * settle (unchanged since before $2, the last funding time): then it must be matched and its funding settled
 * first (no balances).
 */
const BALANCES_IF_IDLE_SQL = `
  SELECT a.id AS account_id, o.busy, b.asset, b.free::text AS free, b.used::text AS used
  FROM unnest($1::uuid[]) AS a(id)
  CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM paper_orders WHERE account_id = a.id
          AND status IN ('open', 'partially_filled'))
      OR EXISTS (SELECT 1 FROM paper_stops WHERE account_id = a.id AND status = 'open')
      OR EXISTS (SELECT 1 FROM paper_positions WHERE account_id = a.id AND amount <> 0
          AND updated_at < $2) AS busy) o
  LEFT JOIN paper_balances b ON b.account_id = a.id AND NOT o.busy
  ORDER BY a.id, b.asset`;

// One statement for any number of accounts (each row names its own); a new order's fills pass its foreign
// key, checked at the statement's end. Changed orders are also named by `= ANY(ids)`, so they are looked up
// by key whatever the table's statistics say.
const WRITE_SQL = `
  WITH new_orders AS (
    INSERT INTO paper_orders (account_id, venue_order_id, client_order_id, market_type, symbol, side, type, price,
        amount, filled, cost, fee, fee_currency, status, reduce_only, reserved_asset, reserved, created_at,
        updated_at, checked_until)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::text[],
                $14::text[], $15::boolean[], $16::text[], $17::numeric[], $18::timestamptz[],
                $19::timestamptz[], $20::timestamptz[])
    RETURNING 1
  ), changed_orders AS (
    UPDATE paper_orders p SET filled = v.filled, cost = v.cost, fee = v.fee, status = v.status,
        reserved_asset = v.reserved_asset, reserved = v.reserved, updated_at = v.updated_at,
        checked_until = v.checked_until
    FROM unnest($21::uuid[], $22::text[], $23::numeric[], $24::numeric[], $25::numeric[], $26::text[],
                $27::text[], $28::numeric[], $29::timestamptz[], $30::timestamptz[])
      AS v(account_id, venue_order_id, filled, cost, fee, status, reserved_asset, reserved, updated_at,
           checked_until)
    WHERE p.venue_order_id = ANY($22::text[]) AND p.account_id = v.account_id
      AND p.venue_order_id = v.venue_order_id
    RETURNING 1
  ), new_fills AS (
    INSERT INTO paper_fills (account_id, venue_trade_id, venue_order_id, market_type, symbol, side, price, amount,
        cost, fee, fee_currency, taker_or_maker, realized_pnl, executed_at)
    SELECT * FROM unnest($31::uuid[], $32::text[], $33::text[], $34::text[], $35::text[], $36::text[],
                $37::numeric[], $38::numeric[], $39::numeric[], $40::numeric[], $41::text[], $42::text[],
                $43::numeric[], $44::timestamptz[])
    RETURNING 1
  ), new_balances AS (
    INSERT INTO paper_balances (account_id, asset, free, used)
    SELECT * FROM unnest($45::uuid[], $46::text[], $47::numeric[], $48::numeric[])
    ON CONFLICT (account_id, asset) DO UPDATE SET free = excluded.free, used = excluded.used
    RETURNING 1
  )
  SELECT 1`;

/**
 * Stops placed and stops changed (checked further, triggered, cancelled, expired), for any number of
 * accounts. Rare next to orders (placed once, checkpointed once a minute), so a statement of their own,
 * run only when there are some.
 */
const WRITE_STOPS_SQL = `
  WITH new_stops AS (
    INSERT INTO paper_stops (account_id, venue_order_id, client_order_id, market_type, symbol, side, amount,
        trigger_price, status, triggered_order_id, created_at, updated_at, checked_until)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                $8::numeric[], $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[],
                $13::timestamptz[])
    RETURNING 1
  ), changed_stops AS (
    UPDATE paper_stops p SET status = v.status, triggered_order_id = v.triggered_order_id,
        updated_at = v.updated_at, checked_until = v.checked_until
    FROM unnest($14::uuid[], $15::text[], $16::text[], $17::text[], $18::timestamptz[], $19::timestamptz[])
      AS v(account_id, venue_order_id, status, triggered_order_id, updated_at, checked_until)
    WHERE p.venue_order_id = ANY($15::text[]) AND p.account_id = v.account_id
      AND p.venue_order_id = v.venue_order_id
    RETURNING 1
  )
  SELECT 1`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Columns of rows as arrays, in the given order (for unnest). */
function columns<T>(rows: T[], pick: ((row: T) => unknown)[]): unknown[][] {
  return pick.map((get) => rows.map(get));
}

type AccountWrites = { accountId: string; writes: PaperLedgerWrites };

/** Every row of `changes` with its account, per kind. */
function rowsOf<K extends keyof PaperLedgerWrites>(changes: AccountWrites[], kind: K) {
  return changes.flatMap(({ accountId, writes }) =>
    (writes[kind] ?? []).map((row) => ({ accountId, row: row as NonNullable<PaperLedgerWrites[K]>[number] })),
  );
}

/**
 * Writes several accounts' changes in one statement (`WRITE_SQL`), and their stops, when there are any, in a
 * second one after it (a triggered stop names an order the first one wrote).
 */
async function writeLedgers(q: Queryable, changes: AccountWrites[]): Promise<void> {
  await writeOrders(q, changes);
  await writeStops(q, changes);
  await writeFunding(q, changes);
  await writePositions(q, changes);
}

/** Futures positions changed (each fill of a futures order), one statement for every account. */
async function writePositions(q: Queryable, changes: AccountWrites[]): Promise<void> {
  const rows = rowsOf(changes, 'positions');
  if (rows.length === 0) return;
  await q.query({
    name: 'paper_ledger_write_positions',
    text: `INSERT INTO paper_positions (account_id, symbol, amount, entry_price, leverage, margin, updated_at)
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::numeric[], $4::numeric[], $5::int[], $6::numeric[],
                  $7::timestamptz[])
      ON CONFLICT (account_id, symbol) DO UPDATE SET amount = EXCLUDED.amount, entry_price = EXCLUDED.entry_price,
        leverage = EXCLUDED.leverage, margin = EXCLUDED.margin, updated_at = EXCLUDED.updated_at`,
    values: columns(rows, [
      (p) => p.accountId,
      (p) => p.row.symbol,
      (p) => p.row.amount,
      (p) => p.row.entryPrice,
      (p) => p.row.leverage,
      (p) => p.row.margin,
      (p) => iso(p.row.updatedAt),
    ]),
  });
}

/** Accounts' positions (and symbol settings: rows holding nothing), one read for all of them. */
const POSITIONS_SQL = `
  SELECT account_id, symbol, amount::text AS amount, entry_price::text AS entry_price, margin::text AS margin,
         leverage, margin_mode, updated_at
  FROM paper_positions WHERE account_id = ANY($1::uuid[]) ORDER BY account_id, symbol`;

/** Funding payments settled (every 8 h per open position: rare), a statement of their own when there are any. */
async function writeFunding(q: Queryable, changes: AccountWrites[]): Promise<void> {
  const rows = rowsOf(changes, 'funding');
  if (rows.length === 0) return;
  await q.query({
    name: 'paper_ledger_write_funding',
    text: `INSERT INTO paper_funding (account_id, id, symbol, amount, currency, rate, price, position, paid_at)
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::numeric[],
                  $7::numeric[], $8::numeric[], $9::timestamptz[])`,
    values: columns(rows, [
      (f) => f.accountId,
      (f) => f.row.id,
      (f) => f.row.symbol,
      (f) => f.row.amount,
      (f) => f.row.currency,
      (f) => f.row.rate,
      (f) => f.row.price,
      (f) => f.row.position,
      (f) => iso(f.row.timestamp),
    ]),
  });
}

async function writeStops(q: Queryable, changes: AccountWrites[]): Promise<void> {
  const newStops = rowsOf(changes, 'newStops');
  const changedStops = rowsOf(changes, 'changedStops');
  if (newStops.length + changedStops.length === 0) return;
  const values = [
    ...columns(newStops, [
      (s) => s.accountId,
      (s) => s.row.venueOrderId,
      (s) => s.row.clientOrderId,
      (s) => s.row.marketType,
      (s) => s.row.symbol,
      (s) => s.row.side,
      (s) => s.row.amount,
      (s) => s.row.triggerPrice,
      (s) => s.row.status,
      (s) => s.row.triggeredOrderId,
      (s) => iso(s.row.createdAt),
      (s) => iso(s.row.updatedAt),
      (s) => iso(s.row.checkedUntil),
    ]),
    ...columns(changedStops, [
      (s) => s.accountId,
      (s) => s.row.venueOrderId,
      (s) => s.row.status,
      (s) => s.row.triggeredOrderId,
      (s) => iso(s.row.updatedAt),
      (s) => iso(s.row.checkedUntil),
    ]),
  ];
  try {
    await q.query({ name: 'paper_ledger_write_stops', text: WRITE_STOPS_SQL, values });
  } catch (error) {
    if (isUniqueViolation(error, 'paper_stops_client_order_id_uq')) {
      throw new DuplicateClientOrderIdError(newStops.map((s) => s.row.clientOrderId).join(', '));
    }
    throw error;
  }
}

async function writeOrders(q: Queryable, changes: AccountWrites[]): Promise<void> {
  const newOrders = rowsOf(changes, 'newOrders');
  const changedOrders = rowsOf(changes, 'changedOrders');
  const fills = rowsOf(changes, 'fills');
  const balances = rowsOf(changes, 'balances');
  if (newOrders.length + changedOrders.length + fills.length + balances.length === 0) return;
  const values = [
    ...columns(newOrders, [
      (o) => o.accountId,
      (o) => o.row.venueOrderId,
      (o) => o.row.clientOrderId,
      (o) => o.row.marketType,
      (o) => o.row.symbol,
      (o) => o.row.side,
      (o) => o.row.type,
      (o) => o.row.price,
      (o) => o.row.amount,
      (o) => o.row.filled,
      (o) => o.row.cost,
      (o) => o.row.fee,
      (o) => o.row.feeCurrency,
      (o) => o.row.status,
      (o) => o.row.reduceOnly,
      (o) => o.row.reservedAsset,
      (o) => o.row.reserved,
      (o) => iso(o.row.createdAt),
      (o) => iso(o.row.updatedAt),
      (o) => iso(o.row.checkedUntil),
    ]),
    ...columns(changedOrders, [
      (o) => o.accountId,
      (o) => o.row.venueOrderId,
      (o) => o.row.filled,
      (o) => o.row.cost,
      (o) => o.row.fee,
      (o) => o.row.status,
      (o) => o.row.reservedAsset,
      (o) => o.row.reserved,
      (o) => iso(o.row.updatedAt),
      (o) => iso(o.row.checkedUntil),
    ]),
    ...columns(fills, [
      (f) => f.accountId,
      (f) => f.row.venueTradeId,
      (f) => f.row.venueOrderId,
      (f) => f.row.marketType,
      (f) => f.row.symbol,
      (f) => f.row.side,
      (f) => f.row.price,
      (f) => f.row.amount,
      (f) => f.row.cost,
      (f) => f.row.fee,
      (f) => f.row.feeCurrency,
      (f) => f.row.takerOrMaker,
      (f) => f.row.realizedPnl,
      (f) => iso(f.row.timestamp),
    ]),
    ...columns(balances, [(b) => b.accountId, (b) => b.row.asset, (b) => b.row.free, (b) => b.row.used]),
  ];
  try {
    // One account's writes (every order's, every tick's) as a named prepared statement; a batch over many
    // accounts is planned for its own rows, with the table as it is now.
    await q.query({ name: changes.length === 1 ? 'paper_ledger_write' : undefined, text: WRITE_SQL, values });
  } catch (error) {
    if (isUniqueViolation(error, 'paper_orders_client_order_id_uq')) {
      throw new DuplicateClientOrderIdError(newOrders.map((o) => o.row.clientOrderId).join(', '));
    }
    throw error;
  }
}

/** `PaperLedger.prepareOrder` for any number of orders, in their order (`PREPARE_ORDERS_SQL`). */
async function prepareOrders(q: Queryable, orders: { accountId: string; clientOrderId: string }[]) {
  const result = await q.query<{
    kind: 'o' | 'b';
    ord: number | null;
    account_id: string | null;
    taken_by: string | null;
    asset: string | null;
    free: string;
    used: string;
  }>({
    name: 'paper_prepare_orders',
    text: PREPARE_ORDERS_SQL,
    values: [orders.map((o) => o.accountId), orders.map((o) => o.clientOrderId)],
  });
  const takenBy = new Map<number, string | null>();
  const balances = new Map<string, PaperBalanceRow[]>();
  for (const row of result.rows) {
    if (row.kind === 'o') takenBy.set(row.ord!, row.taken_by);
    else {
      const list = balances.get(row.account_id!) ?? [];
      list.push({ asset: row.asset!, free: canonical(row.free), used: canonical(row.used) });
      balances.set(row.account_id!, list);
    }
  }
  const held = await q.query<{
    account_id: string;
    symbol: string;
    amount: string;
    entry_price: string;
    margin: string;
    leverage: number;
    margin_mode: 'isolated' | 'cross' | null;
    updated_at: Date;
  }>({
    name: 'paper_prepare_positions',
    text: POSITIONS_SQL,
    values: [[...new Set(orders.map((o) => o.accountId))]],
  });
  const positions = new Map<string, PaperPositionRow[]>();
  for (const row of held.rows) {
    const list = positions.get(row.account_id) ?? [];
    list.push({
      symbol: row.symbol,
      amount: canonical(row.amount),
      entryPrice: canonical(row.entry_price),
      margin: canonical(row.margin),
      leverage: row.leverage,
      marginMode: row.margin_mode ?? undefined,
      updatedAt: row.updated_at.getTime(),
    });
    positions.set(row.account_id, list);
  }
  return orders.map((order, i) => ({
    takenBy: takenBy.get(i + 1) ?? null,
    balances: balances.get(order.accountId) ?? [],
    positions: positions.get(order.accountId) ?? [],
  }));
}

type PreparedRow =
  | (OrderRecord & { kind: 'o'; ord: null })
  | (StopRecord & { kind: 's' | 't'; ord: number | null; price: string | null });

/**
 * `PaperLedgerBatch.prepareStops` (and `prepareAccounts`: no stops, `more` accounts): two statements whatever
 * the number of stops and accounts.
 */
async function prepareStops(
  q: Queryable,
  stops: { accountId: string; clientOrderId: string }[],
  more: string[] = [],
) {
  const accountIds = [...new Set([...stops.map((stop) => stop.accountId), ...more])];
  const resting = await q.query<PreparedRow>({
    name: 'paper_prepare_stops',
    text: PREPARE_STOPS_SQL,
    values: [stops.map((s) => s.accountId), stops.map((s) => s.clientOrderId), accountIds],
  });
  const owned = await q.query<{
    kind: 'b' | 'p';
    account_id: string;
    key: string;
    a: string;
    b: string;
    c: string | null;
    leverage: number | null;
    margin_mode: 'isolated' | 'cross' | null;
    updated_at: Date | null;
  }>({ name: 'paper_balances_and_positions', text: BALANCES_AND_POSITIONS_SQL, values: [accountIds] });
  const accounts = new Map<string, PreparedAccount>(
    accountIds.map((id) => [id, { balances: [], positions: [], resting: { orders: [], stops: [] } }]),
  );
  const taken: (PaperStopRow | null)[] = stops.map(() => null);
  for (const row of resting.rows) {
    const account = accounts.get(row.accountId)!;
    if (row.kind === 'o') account.resting.orders.push(toOrderRow(row));
    else {
      const stop = toStopRow({ ...row, limitPrice: row.price });
      if (row.ord !== null) taken[row.ord - 1] = stop;
      // A stop asked for again and still open rests too.
      if (row.status === 'open') account.resting.stops.push(stop);
    }
  }
  for (const row of owned.rows) {
    const account = accounts.get(row.account_id)!;
    if (row.kind === 'b')
      account.balances.push({ asset: row.key, free: canonical(row.a), used: canonical(row.b) });
    else {
      account.positions.push({
        symbol: row.key,
        amount: canonical(row.a),
        entryPrice: canonical(row.b),
        margin: canonical(row.c!),
        leverage: row.leverage!,
        marginMode: row.margin_mode ?? undefined,
        updatedAt: row.updated_at!.getTime(),
      });
    }
  }
  return { taken, accounts };
}

/**
 * `PaperLedgerReader.balancesIfNoOpenOrders` for any number of accounts, in their order: one statement, so
 * each answer and its balances come from the same snapshot.
 */
async function balancesIfIdle(
  q: Queryable,
  accountIds: string[],
  fundingDue: number,
): Promise<(PaperBalanceRow[] | null)[]> {
  const result = await q.query<{
    account_id: string;
    busy: boolean;
    asset: string | null;
    free: string;
    used: string;
  }>({
    name: 'paper_balances_if_idle',
    text: BALANCES_IF_IDLE_SQL,
    values: [[...new Set(accountIds)], iso(fundingDue)],
  });
  const byAccount = new Map<string, PaperBalanceRow[] | null>();
  for (const row of result.rows) {
    if (row.busy) byAccount.set(row.account_id, null);
    else {
      const list = byAccount.get(row.account_id) ?? [];
      if (row.asset !== null)
        list.push({ asset: row.asset, free: canonical(row.free), used: canonical(row.used) });
      byAccount.set(row.account_id, list);
    }
  }
  return accountIds.map((id) => (byAccount.has(id) ? byAccount.get(id)! : []));
}

class PgPaperLedger implements PaperLedger, PaperLedgerReader {
  private drizzleTx?: LedgerDb;

  constructor(
    private readonly q: Queryable,
    private readonly accountId: string,
    private readonly makeTx: () => LedgerDb,
  ) {}

  /** Drizzle on the same connection, made when a method that uses it first runs. */
  private get tx(): LedgerDb {
    return (this.drizzleTx ??= this.makeTx());
  }

  async balances(): Promise<PaperBalanceRow[]> {
    const rows = await this.tx
      .select()
      .from(paperBalances)
      .where(eq(paperBalances.accountId, this.accountId))
      .orderBy(asc(paperBalances.asset));
    return rows.map((row) => ({ asset: row.asset, free: canonical(row.free), used: canonical(row.used) }));
  }

  async balancesIfNoOpenOrders(fundingDue: number): Promise<PaperBalanceRow[] | null> {
    return (await balancesIfIdle(this.q, [this.accountId], fundingDue))[0]!;
  }

  async prepareOrder(clientOrderId: string) {
    return (await prepareOrders(this.q, [{ accountId: this.accountId, clientOrderId }]))[0]!;
  }

  async hasOpenOrders(fundingDue: number): Promise<boolean> {
    const result = await this.q.query<{ busy: boolean }>({
      name: 'paper_busy',
      text: BUSY_SQL,
      values: [this.accountId, iso(fundingDue)],
    });
    return result.rows[0]!.busy;
  }

  async write(changes: PaperLedgerWrites): Promise<void> {
    await writeLedgers(this.q, [{ accountId: this.accountId, writes: changes }]);
  }

  async orderById(venueOrderId: string): Promise<PaperOrderRow | null> {
    const [row] = await this.tx
      .select()
      .from(paperOrders)
      .where(and(eq(paperOrders.accountId, this.accountId), eq(paperOrders.venueOrderId, venueOrderId)));
    return row ? toOrderRow(row) : null;
  }

  async orderByClientId(clientOrderId: string): Promise<PaperOrderRow | null> {
    const [row] = await this.tx
      .select()
      .from(paperOrders)
      .where(and(eq(paperOrders.accountId, this.accountId), eq(paperOrders.clientOrderId, clientOrderId)));
    return row ? toOrderRow(row) : null;
  }

  async stopById(venueOrderId: string): Promise<PaperStopRow | null> {
    return this.stopWhere(eq(paperStops.venueOrderId, venueOrderId));
  }

  async stopByClientId(clientOrderId: string): Promise<PaperStopRow | null> {
    return this.stopWhere(eq(paperStops.clientOrderId, clientOrderId));
  }

  /** The account's stop matching `condition`, with its limit price (`STOP_READ`). */
  private async stopWhere(condition: ReturnType<typeof eq>): Promise<PaperStopRow | null> {
    const [row] = await this.tx
      .select(STOP_READ)
      .from(paperStops)
      .leftJoin(paperOrders, eq(paperOrders.venueOrderId, paperStops.triggeredOrderId))
      .where(and(eq(paperStops.accountId, this.accountId), condition));
    return row ? toStopRow(row) : null;
  }

  async resting(): Promise<{ orders: PaperOrderRow[]; stops: PaperStopRow[] }> {
    // Read on every match of the account (each tick, each read while something rests): a prepared statement.
    const result = await this.q.query<
      (OrderRecord & { kind: 'o' }) | (StopRecord & { kind: 's'; price: string | null })
    >({
      name: 'paper_resting',
      text: RESTING_SQL,
      values: [this.accountId],
    });
    const orders: PaperOrderRow[] = [];
    const stops: PaperStopRow[] = [];
    for (const row of result.rows) {
      if (row.kind === 'o') orders.push(toOrderRow(row));
      else stops.push(toStopRow({ ...row, limitPrice: row.price }));
    }
    return { orders, stops };
  }

  async fills(symbol: string, since?: number): Promise<PaperFillRow[]> {
    const rows = await this.tx
      .select()
      .from(paperFills)
      .where(
        and(
          eq(paperFills.accountId, this.accountId),
          eq(paperFills.symbol, symbol),
          since === undefined ? undefined : gte(paperFills.executedAt, new Date(since)),
        ),
      )
      .orderBy(asc(paperFills.executedAt), asc(paperFills.seq));
    return rows.map(toFillRow);
  }

  async funding(symbol: string, since?: number): Promise<PaperFundingRow[]> {
    const rows = await this.tx
      .select()
      .from(paperFunding)
      .where(
        and(
          eq(paperFunding.accountId, this.accountId),
          eq(paperFunding.symbol, symbol),
          since === undefined ? undefined : gte(paperFunding.paidAt, new Date(since)),
        ),
      )
      .orderBy(asc(paperFunding.paidAt));
    return rows.map((row) => ({
      id: row.id,
      symbol: row.symbol,
      amount: canonical(row.amount),
      currency: row.currency,
      rate: canonical(row.rate),
      price: canonical(row.price),
      position: canonical(row.position),
      timestamp: row.paidAt.getTime(),
    }));
  }

  async positions(): Promise<PaperPositionRow[]> {
    const rows = await this.tx
      .select()
      .from(paperPositions)
      .where(eq(paperPositions.accountId, this.accountId))
      .orderBy(asc(paperPositions.symbol));
    return rows.map(toPositionRow);
  }

  async savePosition(row: PaperPositionRow): Promise<void> {
    const values = {
      amount: row.amount,
      entryPrice: row.entryPrice,
      leverage: row.leverage,
      margin: row.margin,
      updatedAt: new Date(row.updatedAt),
    };
    await this.tx
      .insert(paperPositions)
      .values({ accountId: this.accountId, symbol: row.symbol, ...values })
      .onConflictDoUpdate({ target: [paperPositions.accountId, paperPositions.symbol], set: values });
  }

  async leverage(symbol: string): Promise<number | null> {
    const [row] = await this.tx
      .select({ leverage: paperPositions.leverage })
      .from(paperPositions)
      .where(and(eq(paperPositions.accountId, this.accountId), eq(paperPositions.symbol, symbol)));
    return row?.leverage ?? null;
  }

  async saveLeverage(symbol: string, leverage: number): Promise<void> {
    await this.saveSymbolSetting(symbol, { leverage });
  }

  async saveMarginMode(symbol: string, marginMode: 'isolated' | 'cross'): Promise<void> {
    await this.saveSymbolSetting(symbol, { marginMode });
  }

  /** A symbol's setting kept on its position row (a row with amount 0 before any position exists). */
  private async saveSymbolSetting(
    symbol: string,
    setting: { leverage: number } | { marginMode: 'isolated' | 'cross' },
  ): Promise<void> {
    await this.tx
      .insert(paperPositions)
      .values({
        accountId: this.accountId,
        symbol,
        amount: '0',
        entryPrice: '0',
        leverage: 1,
        margin: '0',
        updatedAt: new Date(),
        ...setting,
      })
      .onConflictDoUpdate({ target: [paperPositions.accountId, paperPositions.symbol], set: setting });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The paper ledger on PostgreSQL. Each `transact` is one database transaction holding a per-account
 * advisory lock, so API and worker processes never interleave two changes of the same paper account; it
 * opens with one round trip (`BEGIN` and the lock together). `read` runs single-statement reads on the pool,
 * with no transaction and no lock.
 */
export function createPgPaperLedgerStore(db: Database): PaperLedgerStore {
  const pool = db.$client;
  /**
   * One transaction on one connection: `BEGIN`, the commit mode and the advisory locks of `accountIds` in one
   * round trip (the ids are checked UUIDs, safe to inline in one simple query), locks taken in key order.
   */
  async function inLockedTransaction<T>(
    accountIds: string[],
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    for (const id of accountIds) if (!UUID.test(id)) throw new Error(`Not a paper account id: ${id}`);
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      // A simulated venue's commits need not wait for the disk: what the engine writes after them follows in
      // the same log.
      const locks =
        accountIds.length === 1
          ? `SELECT pg_advisory_xact_lock(${PAPER_LEDGER_LOCK_CLASS}, hashtext('${accountIds[0]}'))`
          : `SELECT pg_advisory_xact_lock(${PAPER_LEDGER_LOCK_CLASS}, k) FROM (SELECT DISTINCT hashtext(a) AS k
               FROM unnest(ARRAY[${accountIds.map((id) => `'${id}'`).join(',')}]) AS a ORDER BY 1) AS keys`;
      await client.query(`BEGIN; SET LOCAL synchronous_commit = off; ${locks}`);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // Rolled back; a connection that cannot even do that is not handed out again.
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  return {
    transact(accountId, work) {
      return inLockedTransaction([accountId], (client) =>
        work(new PgPaperLedger(client, accountId, () => drizzle(client))),
      );
    },
    transactMany(accountIds, work) {
      const ids = [...new Set(accountIds)];
      return inLockedTransaction(ids, (client) => {
        const ledgers = new Map<string, PgPaperLedger>();
        // Without the schema: building its relational config costs more CPU than the ledger's statements.
        const makeTx = () => drizzle(client);
        return work({
          ledger(accountId) {
            if (!ids.includes(accountId)) throw new Error(`Account ${accountId} is not locked here`);
            let ledger = ledgers.get(accountId);
            if (!ledger) ledgers.set(accountId, (ledger = new PgPaperLedger(client, accountId, makeTx)));
            return ledger;
          },
          prepareOrders(orders) {
            return prepareOrders(client, orders);
          },
          prepareStops(stops) {
            return prepareStops(client, stops);
          },
          async prepareAccounts(accountIds) {
            return (await prepareStops(client, [], accountIds)).accounts;
          },
          write(changes) {
            return writeLedgers(client, changes);
          },
        });
      });
    },
    balancesIfNoOpenOrdersMany(accountIds, fundingDue) {
      for (const id of accountIds) if (!UUID.test(id)) throw new Error(`Not a paper account id: ${id}`);
      return balancesIfIdle(pool, accountIds, fundingDue);
    },
    read(accountId, work) {
      return work(new PgPaperLedger(pool, accountId, () => db));
    },
    async accountsWithOpenOrders() {
      const rows = await db
        .selectDistinct({ accountId: paperOrders.accountId })
        .from(paperOrders)
        .where(inArray(paperOrders.status, [...OPEN_STATUSES]))
        .union(
          db
            .selectDistinct({ accountId: paperStops.accountId })
            .from(paperStops)
            .where(eq(paperStops.status, 'open')),
        );
      return rows.map((row) => row.accountId);
    },
  };
}
