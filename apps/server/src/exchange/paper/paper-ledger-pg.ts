import { and, asc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
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

function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  // Drizzle wraps the driver error; the pg error sits in `cause`.
  for (let depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: string; constraint?: string; cause?: unknown };
    if (candidate.code === '23505' && candidate.constraint === constraint) return true;
    current = candidate.cause;
  }
  return false;
}

class PgPaperLedger implements PaperLedger, PaperLedgerReader {
  constructor(
    private readonly tx: DbOrTx,
    private readonly accountId: string,
  ) {}

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
    const result = await this.tx.execute(sql`
      SELECT o.busy, b.asset, b.free::text AS free, b.used::text AS used
      FROM (SELECT EXISTS (SELECT 1 FROM ${paperOrders} WHERE account_id = ${this.accountId}
              AND status IN ('open', 'partially_filled')) AS busy) o
      LEFT JOIN ${paperBalances} b ON b.account_id = ${this.accountId} AND NOT o.busy
      ORDER BY b.asset`);
    const rows = result.rows as { busy: boolean; asset: string | null; free: string; used: string }[];
    if (rows[0]?.busy) return null;
    return rows
      .filter((row) => row.asset !== null)
      .map((row) => ({ asset: row.asset!, free: canonical(row.free), used: canonical(row.used) }));
  }

  async prepareOrder(clientOrderId: string) {
    const result = await this.tx.execute(sql`
      SELECT (SELECT venue_order_id FROM ${paperOrders}
                WHERE account_id = ${this.accountId} AND client_order_id = ${clientOrderId}) AS taken_by,
             b.asset, b.free::text AS free, b.used::text AS used
      FROM (SELECT 1) one
      LEFT JOIN ${paperBalances} b ON b.account_id = ${this.accountId}
      ORDER BY b.asset`);
    const rows = result.rows as {
      taken_by: string | null;
      asset: string | null;
      free: string;
      used: string;
    }[];
    return {
      takenBy: rows[0]?.taken_by ?? null,
      balances: rows
        .filter((row) => row.asset !== null)
        .map((row) => ({ asset: row.asset!, free: canonical(row.free), used: canonical(row.used) })),
    };
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
    // Plain SQL: this runs for every paper order, and Drizzle's query building would cost more CPU.
    const steps: SQL[] = [];
    if (newOrders.length > 0) steps.push(this.orderInserts(newOrders));
    if (changedOrders.length > 0) steps.push(this.orderUpdates(changedOrders));
    if (fills.length > 0) steps.push(this.fillInserts(fills));
    if (balances.length > 0) {
      const values = sql.join(
        balances.map(
          (row) => sql`(${this.accountId}::uuid, ${row.asset}, ${row.free}::numeric, ${row.used}::numeric)`,
        ),
        sql`, `,
      );
      steps.push(sql`INSERT INTO ${paperBalances} (account_id, asset, free, used) VALUES ${values}
        ON CONFLICT (account_id, asset) DO UPDATE SET free = excluded.free, used = excluded.used`);
    }
    if (steps.length === 0) return;
    // One statement; a new order's fills pass its foreign key, checked at the statement's end.
    const statement =
      steps.length === 1
        ? steps[0]!
        : sql`WITH ${sql.join(
            steps.map((step, i) => sql`${sql.raw(`w${i}`)} AS (${step})`),
            sql`, `,
          )} SELECT 1`;
    try {
      await this.tx.execute(statement);
    } catch (error) {
      if (isUniqueViolation(error, 'paper_orders_client_order_id_uq')) {
        throw new DuplicateClientOrderIdError(newOrders.map((row) => row.clientOrderId).join(', '));
      }
      throw error;
    }
  }

  private orderInserts(rows: PaperOrderRow[]): SQL {
    const values = sql.join(
      rows.map(
        (row) =>
          sql`(${row.venueOrderId}, ${this.accountId}::uuid, ${row.clientOrderId}, ${row.marketType},
               ${row.symbol}, ${row.side}, ${row.type}, ${row.price}::numeric, ${row.amount}::numeric,
               ${row.filled}::numeric, ${row.cost}::numeric, ${row.fee}::numeric, ${row.feeCurrency},
               ${row.status}, ${row.reduceOnly}::boolean, ${row.reservedAsset}::text, ${row.reserved}::numeric,
               ${new Date(row.createdAt).toISOString()}::timestamptz,
               ${new Date(row.updatedAt).toISOString()}::timestamptz,
               ${new Date(row.checkedUntil).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    return sql`INSERT INTO ${paperOrders} (venue_order_id, account_id, client_order_id, market_type, symbol,
        side, type, price, amount, filled, cost, fee, fee_currency, status, reduce_only, reserved_asset,
        reserved, created_at, updated_at, checked_until)
      VALUES ${values}`;
  }

  private fillInserts(rows: PaperFillRow[]): SQL {
    const values = sql.join(
      rows.map(
        (row) =>
          sql`(${row.venueTradeId}, ${this.accountId}::uuid, ${row.venueOrderId}, ${row.marketType},
               ${row.symbol}, ${row.side}, ${row.price}::numeric, ${row.amount}::numeric, ${row.cost}::numeric,
               ${row.fee}::numeric, ${row.feeCurrency}, ${row.takerOrMaker}, ${row.realizedPnl}::numeric,
               ${new Date(row.timestamp).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    return sql`INSERT INTO ${paperFills} (venue_trade_id, account_id, venue_order_id, market_type, symbol,
        side, price, amount, cost, fee, fee_currency, taker_or_maker, realized_pnl, executed_at)
      VALUES ${values}`;
  }

  /** The parts of resting orders that change (fills, status, reservation, checkpoint), all in one update. */
  private orderUpdates(rows: PaperOrderRow[]): SQL {
    const values = sql.join(
      rows.map(
        (row) =>
          sql`(${row.venueOrderId}, ${row.filled}::numeric, ${row.cost}::numeric, ${row.fee}::numeric,
               ${row.status}, ${row.reservedAsset}::text, ${row.reserved}::numeric,
               ${new Date(row.updatedAt).toISOString()}::timestamptz,
               ${new Date(row.checkedUntil).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    return sql`UPDATE ${paperOrders} SET filled = v.filled, cost = v.cost, fee = v.fee, status = v.status,
        reserved_asset = v.reserved_asset, reserved = v.reserved, updated_at = v.updated_at,
        checked_until = v.checked_until
      FROM (VALUES ${values})
        AS v(venue_order_id, filled, cost, fee, status, reserved_asset, reserved, updated_at, checked_until)
      WHERE ${paperOrders.accountId} = ${this.accountId} AND ${paperOrders.venueOrderId} = v.venue_order_id`;
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

/**
 * The paper ledger on PostgreSQL. Each `transact` is one database transaction holding a per-account
 * advisory lock, so API and worker processes never interleave two changes of the same paper account.
 * `read` runs single-statement reads on the pool, with no transaction and no lock.
 */
export function createPgPaperLedgerStore(db: Database): PaperLedgerStore {
  return {
    transact(accountId, work) {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(${PAPER_LEDGER_LOCK_CLASS}, hashtext(${accountId}))`,
        );
        return work(new PgPaperLedger(tx, accountId));
      });
    },
    read(accountId, work) {
      return work(new PgPaperLedger(db, accountId));
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
