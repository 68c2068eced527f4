import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-fns';
import * as schema from '../../db/schema/index';
import { paperBalances, paperFills, paperOrders, paperPositions } from '../../db/schema/paper';
import {
  DuplicateClientOrderIdError,
  type PaperBalanceRow,
  type PaperFillRow,
  type PaperLedger,
  type PaperLedgerReader,
  type PaperLedgerStore,
  type PaperLedgerWrites,
  type PaperOrderRow,
  type PaperPositionRow,
} from './paper-ledger-store';

/** Advisory-lock class of paper ledgers (the object id is the account id's hash). */
const PAPER_LEDGER_LOCK_CLASS = 724_311_101;
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

function toPositionRow(record: PositionRecord): PaperPositionRow {
  return {
    symbol: record.symbol,
    amount: canonical(record.amount),
    entryPrice: canonical(record.entryPrice),
    leverage: record.leverage,
    margin: canonical(record.margin),
    updatedAt: record.updatedAt.getTime(),
  };
}

/** Drizzle on the pool (reads) or on the transaction's client. */
type LedgerDb = NodePgDatabase<typeof schema>;

/** What the hot statements run on: the pool (reads) or the transaction's client. */
type Queryable = Pick<pg.Pool, 'query'>;

/**
 * The statements every paper order runs (the balances a sizing reads, the placing read, the write) are
 * plain SQL as named prepared statements: parsed and planned once per connection, with arrays (unnest) so
 * the text is the same whatever the number of rows. The rest goes through Drizzle.
 */
const BALANCES_IF_IDLE_SQL = `
  SELECT o.busy, b.asset, b.free::text AS free, b.used::text AS used
  FROM (SELECT EXISTS (SELECT 1 FROM paper_orders WHERE account_id = $1
          AND status IN ('open', 'partially_filled')) AS busy) o
  LEFT JOIN paper_balances b ON b.account_id = $1 AND NOT o.busy
  ORDER BY b.asset`;

const PREPARE_ORDER_SQL = `
  SELECT (SELECT venue_order_id FROM paper_orders WHERE account_id = $1 AND client_order_id = $2) AS taken_by,
         b.asset, b.free::text AS free, b.used::text AS used
  FROM (SELECT 1) one
  LEFT JOIN paper_balances b ON b.account_id = $1
  ORDER BY b.asset`;

// One statement; a new order's fills pass its foreign key, checked at the statement's end.
const WRITE_SQL = `
  WITH new_orders AS (
    INSERT INTO paper_orders (venue_order_id, account_id, client_order_id, market_type, symbol, side, type, price,
        amount, filled, cost, fee, fee_currency, status, reduce_only, reserved_asset, reserved, created_at,
        updated_at, checked_until)
    SELECT o.venue_order_id, $1::uuid, o.client_order_id, o.market_type, o.symbol, o.side, o.type, o.price,
           o.amount, o.filled, o.cost, o.fee, o.fee_currency, o.status, o.reduce_only, o.reserved_asset,
           o.reserved, o.created_at, o.updated_at, o.checked_until
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[],
                $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::text[], $14::text[],
                $15::boolean[], $16::text[], $17::numeric[], $18::timestamptz[], $19::timestamptz[],
                $20::timestamptz[])
      AS o(venue_order_id, client_order_id, market_type, symbol, side, type, price, amount, filled, cost, fee,
           fee_currency, status, reduce_only, reserved_asset, reserved, created_at, updated_at, checked_until)
    RETURNING 1
  ), changed_orders AS (
    UPDATE paper_orders p SET filled = v.filled, cost = v.cost, fee = v.fee, status = v.status,
        reserved_asset = v.reserved_asset, reserved = v.reserved, updated_at = v.updated_at,
        checked_until = v.checked_until
    FROM unnest($21::text[], $22::numeric[], $23::numeric[], $24::numeric[], $25::text[], $26::text[],
                $27::numeric[], $28::timestamptz[], $29::timestamptz[])
      AS v(venue_order_id, filled, cost, fee, status, reserved_asset, reserved, updated_at, checked_until)
    WHERE p.account_id = $1 AND p.venue_order_id = v.venue_order_id
    RETURNING 1
  ), new_fills AS (
    INSERT INTO paper_fills (venue_trade_id, account_id, venue_order_id, market_type, symbol, side, price, amount,
        cost, fee, fee_currency, taker_or_maker, realized_pnl, executed_at)
    SELECT f.venue_trade_id, $1::uuid, f.venue_order_id, f.market_type, f.symbol, f.side, f.price, f.amount,
           f.cost, f.fee, f.fee_currency, f.taker_or_maker, f.realized_pnl, f.executed_at
    FROM unnest($30::text[], $31::text[], $32::text[], $33::text[], $34::text[], $35::numeric[], $36::numeric[],
                $37::numeric[], $38::numeric[], $39::text[], $40::text[], $41::numeric[], $42::timestamptz[])
      AS f(venue_trade_id, venue_order_id, market_type, symbol, side, price, amount, cost, fee, fee_currency,
           taker_or_maker, realized_pnl, executed_at)
    RETURNING 1
  ), new_balances AS (
    INSERT INTO paper_balances (account_id, asset, free, used)
    SELECT $1::uuid, b.asset, b.free, b.used FROM unnest($43::text[], $44::numeric[], $45::numeric[]) AS b(asset, free, used)
    ON CONFLICT (account_id, asset) DO UPDATE SET free = excluded.free, used = excluded.used
    RETURNING 1
  )
  SELECT 1`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Columns of rows as arrays, in the given order (for unnest). */
function columns<T>(rows: T[], pick: ((row: T) => unknown)[]): unknown[][] {
  return pick.map((get) => rows.map(get));
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

  private balanceRows(rows: { asset: string | null; free: string; used: string }[]): PaperBalanceRow[] {
    return rows
      .filter((row) => row.asset !== null)
      .map((row) => ({ asset: row.asset!, free: canonical(row.free), used: canonical(row.used) }));
  }

  async balances(): Promise<PaperBalanceRow[]> {
    const rows = await this.tx
      .select()
      .from(paperBalances)
      .where(eq(paperBalances.accountId, this.accountId))
      .orderBy(asc(paperBalances.asset));
    return rows.map((row) => ({ asset: row.asset, free: canonical(row.free), used: canonical(row.used) }));
  }

  async balancesIfNoOpenOrders(): Promise<PaperBalanceRow[] | null> {
    // One statement, so the answer and the balances come from the same snapshot.
    const result = await this.q.query<{ busy: boolean; asset: string | null; free: string; used: string }>({
      name: 'paper_balances_if_idle',
      text: BALANCES_IF_IDLE_SQL,
      values: [this.accountId],
    });
    if (result.rows[0]?.busy) return null;
    return this.balanceRows(result.rows);
  }

  async prepareOrder(clientOrderId: string) {
    const result = await this.q.query<{
      taken_by: string | null;
      asset: string | null;
      free: string;
      used: string;
    }>({ name: 'paper_prepare_order', text: PREPARE_ORDER_SQL, values: [this.accountId, clientOrderId] });
    return { takenBy: result.rows[0]?.taken_by ?? null, balances: this.balanceRows(result.rows) };
  }

  async hasOpenOrders(): Promise<boolean> {
    const [row] = await this.tx
      .select({ venueOrderId: paperOrders.venueOrderId })
      .from(paperOrders)
      .where(and(eq(paperOrders.accountId, this.accountId), inArray(paperOrders.status, [...OPEN_STATUSES])))
      .limit(1);
    return row !== undefined;
  }

  async write({
    newOrders = [],
    changedOrders = [],
    fills = [],
    balances = [],
  }: PaperLedgerWrites): Promise<void> {
    if (newOrders.length + changedOrders.length + fills.length + balances.length === 0) return;
    const values = [
      this.accountId,
      ...columns<PaperOrderRow>(newOrders, [
        (o) => o.venueOrderId,
        (o) => o.clientOrderId,
        (o) => o.marketType,
        (o) => o.symbol,
        (o) => o.side,
        (o) => o.type,
        (o) => o.price,
        (o) => o.amount,
        (o) => o.filled,
        (o) => o.cost,
        (o) => o.fee,
        (o) => o.feeCurrency,
        (o) => o.status,
        (o) => o.reduceOnly,
        (o) => o.reservedAsset,
        (o) => o.reserved,
        (o) => iso(o.createdAt),
        (o) => iso(o.updatedAt),
        (o) => iso(o.checkedUntil),
      ]),
      ...columns<PaperOrderRow>(changedOrders, [
        (o) => o.venueOrderId,
        (o) => o.filled,
        (o) => o.cost,
        (o) => o.fee,
        (o) => o.status,
        (o) => o.reservedAsset,
        (o) => o.reserved,
        (o) => iso(o.updatedAt),
        (o) => iso(o.checkedUntil),
      ]),
      ...columns<PaperFillRow>(fills, [
        (f) => f.venueTradeId,
        (f) => f.venueOrderId,
        (f) => f.marketType,
        (f) => f.symbol,
        (f) => f.side,
        (f) => f.price,
        (f) => f.amount,
        (f) => f.cost,
        (f) => f.fee,
        (f) => f.feeCurrency,
        (f) => f.takerOrMaker,
        (f) => f.realizedPnl,
        (f) => iso(f.timestamp),
      ]),
      ...columns<PaperBalanceRow>(balances, [(b) => b.asset, (b) => b.free, (b) => b.used]),
    ];
    try {
      await this.q.query({ name: 'paper_ledger_write', text: WRITE_SQL, values });
    } catch (error) {
      if (isUniqueViolation(error, 'paper_orders_client_order_id_uq')) {
        throw new DuplicateClientOrderIdError(newOrders.map((row) => row.clientOrderId).join(', '));
      }
      throw error;
    }
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

  async openOrders(symbol?: string): Promise<PaperOrderRow[]> {
    const rows = await this.tx
      .select()
      .from(paperOrders)
      .where(
        and(
          eq(paperOrders.accountId, this.accountId),
          inArray(paperOrders.status, [...OPEN_STATUSES]),
          symbol === undefined ? undefined : eq(paperOrders.symbol, symbol),
        ),
      )
      .orderBy(asc(paperOrders.seq));
    return rows.map(toOrderRow);
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
    await this.tx
      .insert(paperPositions)
      .values({
        accountId: this.accountId,
        symbol,
        amount: '0',
        entryPrice: '0',
        leverage,
        margin: '0',
        updatedAt: new Date(),
      })
      .onConflictDoUpdate({ target: [paperPositions.accountId, paperPositions.symbol], set: { leverage } });
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
  return {
    async transact(accountId, work) {
      if (!UUID.test(accountId)) throw new Error(`Not a paper account id: ${accountId}`);
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // The id is a checked UUID, safe to inline: the statements go in one simple query. A simulated
        // venue's commits need not wait for the disk: what the engine writes after them follows in the log.
        await client.query(
          `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(${PAPER_LEDGER_LOCK_CLASS}, hashtext('${accountId}'))`,
        );
        const result = await work(new PgPaperLedger(client, accountId, () => drizzle(client, { schema })));
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
    },
    read(accountId, work) {
      return work(new PgPaperLedger(pool, accountId, () => db));
    },
    async accountsWithOpenOrders() {
      const rows = await db
        .selectDistinct({ accountId: paperOrders.accountId })
        .from(paperOrders)
        .where(inArray(paperOrders.status, [...OPEN_STATUSES]));
      return rows.map((row) => row.accountId);
    },
  };
}
