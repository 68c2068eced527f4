import { type Decimal, ZERO, dec } from '../decimal';
import { InvalidOrderError } from '../errors';
import {
  DuplicateClientOrderIdError,
  type PaperBalanceRow,
  type PaperFillRow,
  type PaperFundingRow,
  type PaperLedger,
  type PaperLedgerWrites,
  type PaperOrderRow,
  type PaperPositionRow,
  type PaperStopRow,
  withAnswers,
} from './paper-ledger-store';
import type { LiquidationWatch } from './paper-liquidation';
import { toFill, toOrder, toStopOrder } from './paper-rows';
import type { PaperFillEvent, PaperOrderEvent, PaperStopEvent } from './paper-venue';

export interface MutableBalance {
  free: Decimal;
  used: Decimal;
  dirty: boolean;
  /** Not in the ledger yet: written only once it holds something. */
  created?: boolean;
}

/** One account's balances, what it has not written yet and pending events inside a transaction. */
export class AccountSession {
  private balances: Map<string, MutableBalance> | null = null;
  private unwrittenFills: PaperFillRow[] = [];
  private unwrittenFunding: PaperFundingRow[] = [];
  private newOrders = new Map<string, PaperOrderRow>();
  private changedOrders = new Map<string, PaperOrderRow>();
  private newStops = new Map<string, PaperStopRow>();
  private changedStops = new Map<string, PaperStopRow>();
  /** The positions (and symbol settings) as this transaction sees them, by symbol: read once. */
  private positionRows: Map<string, PaperPositionRow> | null = null;
  private changedPositions = new Map<string, PaperPositionRow>();
  /**
   * The account's ledger in this transaction, its positions kept here: read once (or handed over by a batch's
   * read, `usePositions`) and written with the rest at flush, so a futures order's position costs no statement
   * of its own.
   */
  readonly ledger: PaperLedger;
  readonly fills: PaperFillEvent[] = [];
  readonly orders = new Map<string, PaperOrderEvent>();
  readonly stops = new Map<string, PaperStopEvent>();
  /** Orders whose new state is returned to the caller of this transaction. */
  readonly reported = new Set<string>();
  /** Every position's funding settled up to this funding time here (recorded once the transaction commits). */
  fundingSettledUntil: number | null = null;
  /** The account's liquidation prices as this transaction left them (recorded once it commits). */
  liquidationWatch: LiquidationWatch | null = null;
  /** Whether this transaction wrote a position or the USDT balance (what liquidation prices depend on). */
  moneyChanged = false;

  constructor(
    readonly accountId: string,
    ledger: PaperLedger,
  ) {
    this.ledger = this.keepPositions(ledger);
  }

  /** Positions this transaction has read already (a batch's read). */
  usePositions(rows: PaperPositionRow[]): void {
    if (this.positionRows) return;
    this.positionRows = new Map(rows.map((row) => [row.symbol, { ...row }]));
  }

  private keepPositions(ledger: PaperLedger): PaperLedger {
    const loaded = async () => {
      if (!this.positionRows) this.usePositions(await ledger.positions());
      return this.positionRows!;
    };
    /** A setting written at once: the positions changed before it go first, and are read again after. */
    const setting = async (write: () => Promise<void>) => {
      for (const row of this.changedPositions.values()) await ledger.savePosition(row);
      this.changedPositions = new Map();
      await write();
      this.positionRows = null;
    };
    const kept: Partial<PaperLedger> = {
      positions: async () =>
        [...(await loaded()).values()]
          .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
          .map((row) => ({ ...row })),
      savePosition: async (row) => {
        const rows = await loaded();
        // The margin mode is the symbol's setting, kept as it was set.
        const saved = { ...row, marginMode: rows.get(row.symbol)?.marginMode ?? row.marginMode };
        rows.set(row.symbol, saved);
        this.changedPositions.set(row.symbol, saved);
      },
      leverage: async (symbol) => (await loaded()).get(symbol)?.leverage ?? ledger.leverage(symbol),
      saveLeverage: (symbol, leverage) => setting(() => ledger.saveLeverage(symbol, leverage)),
      saveMarginMode: (symbol, mode) => setting(() => ledger.saveMarginMode(symbol, mode)),
    };
    return withAnswers(ledger, kept);
  }

  /** Balances this transaction has read already (so the first change needs no read of its own). */
  useBalances(rows: PaperBalanceRow[]): void {
    if (this.balances) return;
    this.balances = new Map();
    for (const row of rows) {
      this.balances.set(row.asset, { free: dec(row.free), used: dec(row.used), dirty: false });
    }
  }

  private async loadBalances(): Promise<Map<string, MutableBalance>> {
    if (!this.balances) this.useBalances(await this.ledger.balances());
    return this.balances!;
  }

  /** Every balance as this transaction sees it. */
  async allBalances(): Promise<PaperBalanceRow[]> {
    return [...(await this.loadBalances())]
      .map(([asset, b]) => ({ asset, free: b.free.toFixed(), used: b.used.toFixed() }))
      .sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
  }

  async balance(asset: string): Promise<MutableBalance> {
    const balances = await this.loadBalances();
    let balance = balances.get(asset);
    if (!balance) {
      balance = { free: ZERO, used: ZERO, dirty: true, created: true };
      balances.set(asset, balance);
    }
    return balance;
  }

  /** A fill of `order` (as it is now), written with the rest at flush, and its event. */
  addFill(order: PaperOrderRow, row: PaperFillRow): void {
    this.unwrittenFills.push(row);
    this.fills.push({
      accountId: this.accountId,
      marketType: order.marketType,
      order: toOrder(order),
      fill: toFill(row),
    });
  }

  /** A funding payment settled (its balance change made already), written with the rest at flush. */
  addFunding(row: PaperFundingRow): void {
    this.unwrittenFunding.push(row);
  }

  /** A new order, written (as it is then) at flush. */
  addOrder(order: PaperOrderRow): void {
    this.newOrders.set(order.venueOrderId, order);
  }

  /** An order that changed, written (as it is then) at flush. */
  saveOrder(order: PaperOrderRow): void {
    if (!this.newOrders.has(order.venueOrderId)) this.changedOrders.set(order.venueOrderId, order);
  }

  /** A new stop, written (as it is then) at flush. */
  addStop(stop: PaperStopRow): void {
    this.newStops.set(stop.venueOrderId, stop);
  }

  /** A stop that changed, written (as it is then) at flush. */
  saveStop(stop: PaperStopRow): void {
    if (!this.newStops.has(stop.venueOrderId)) this.changedStops.set(stop.venueOrderId, stop);
  }

  /** The order's state now, as its (latest) event. */
  recordOrder(order: PaperOrderRow): void {
    this.orders.set(order.venueOrderId, {
      accountId: this.accountId,
      marketType: order.marketType,
      order: toOrder(order),
      reported: false,
    });
  }

  /** The stop's state now, as its (latest) event. */
  recordStop(stop: PaperStopRow): void {
    this.stops.set(stop.venueOrderId, {
      accountId: this.accountId,
      marketType: stop.marketType,
      stop: toStopOrder(stop),
      reported: false,
    });
  }

  async change(asset: string, delta: { free?: Decimal; used?: Decimal }): Promise<void> {
    const balance = await this.balance(asset);
    if (delta.free) balance.free = balance.free.plus(delta.free);
    if (delta.used) balance.used = balance.used.plus(delta.used);
    balance.dirty = true;
  }

  /**
   * The orders, fills and changed balances not written yet, now counted as written. A balance an order that
   * was refused only looked at (a new asset, still zero) is not written.
   */
  takeWrites(): PaperLedgerWrites {
    const dirty = [...(this.balances ?? [])].filter(
      ([, balance]) => balance.dirty && !(balance.created && balance.free.isZero() && balance.used.isZero()),
    );
    const changes = {
      newOrders: [...this.newOrders.values()],
      changedOrders: [...this.changedOrders.values()],
      fills: this.unwrittenFills,
      balances: dirty.map(([asset, b]) => ({ asset, free: b.free.toFixed(), used: b.used.toFixed() })),
      newStops: [...this.newStops.values()],
      changedStops: [...this.changedStops.values()],
      funding: this.unwrittenFunding,
      positions: [...this.changedPositions.values()],
    };
    if (changes.positions.length > 0 || changes.balances.some((b) => b.asset === 'USDT'))
      this.moneyChanged = true;
    this.changedPositions = new Map();
    this.newOrders = new Map();
    this.changedOrders = new Map();
    this.newStops = new Map();
    this.changedStops = new Map();
    this.unwrittenFills = [];
    this.unwrittenFunding = [];
    for (const [, balance] of dirty) {
      balance.dirty = false;
      balance.created = false;
    }
    return changes;
  }

  /** Writes the orders, fills and changed balances in one go. */
  async flush(): Promise<void> {
    const changes = this.takeWrites();
    try {
      await this.ledger.write(changes);
    } catch (error) {
      if (error instanceof DuplicateClientOrderIdError) {
        throw new InvalidOrderError(`Duplicate clientOrderId ${error.clientOrderId}`, { cause: error });
      }
      throw error;
    }
  }
}
