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
} from '../../src/exchange/paper/paper-ledger-store';

/** Test double of the paper ledger: per-account serialised transactions with rollback, rows copied in and out. */
interface AccountState {
  balances: Map<string, PaperBalanceRow>;
  orders: PaperOrderRow[];
  fills: PaperFillRow[];
  positions: Map<string, PaperPositionRow>;
  leverage: Map<string, number>;
  stops: PaperStopRow[];
  funding: PaperFundingRow[];
}

function emptyState(): AccountState {
  return {
    balances: new Map(),
    orders: [],
    fills: [],
    positions: new Map(),
    leverage: new Map(),
    stops: [],
    funding: [],
  };
}

const copy = <T>(value: T): T => structuredClone(value);

class InMemoryLedger implements PaperLedger {
  constructor(private readonly state: AccountState) {}

  async balances() {
    return [...this.state.balances.values()].map(copy);
  }
  async balancesIfNoOpenOrders(fundingDue: number) {
    return (await this.hasOpenOrders(fundingDue)) ? null : this.balances();
  }
  async prepareOrder(clientOrderId: string) {
    const taken = this.state.orders.find((order) => order.clientOrderId === clientOrderId);
    return { takenBy: taken?.venueOrderId ?? null, balances: await this.balances() };
  }
  async hasOpenOrders(fundingDue: number) {
    return (
      this.state.orders.some((order) => order.status === 'open' || order.status === 'partially_filled') ||
      this.state.stops.some((stop) => stop.status === 'open') ||
      [...this.state.positions.values()].some((row) => Number(row.amount) !== 0 && row.updatedAt < fundingDue)
    );
  }
  async write({
    newOrders = [],
    changedOrders = [],
    fills = [],
    balances = [],
    newStops = [],
    changedStops = [],
    funding = [],
    positions = [],
  }: PaperLedgerWrites) {
    this.state.funding.push(...funding.map(copy));
    for (const row of positions) await this.savePosition(row);
    for (const row of newOrders) this.insertOrder(row);
    for (const row of changedOrders) this.updateOrder(row);
    this.insertFills(fills);
    for (const row of balances) this.state.balances.set(row.asset, copy(row));
    for (const row of newStops) {
      if (this.state.stops.some((stop) => stop.clientOrderId === row.clientOrderId)) {
        throw new DuplicateClientOrderIdError(row.clientOrderId);
      }
      this.state.stops.push(copy(row));
    }
    for (const row of changedStops) {
      const index = this.state.stops.findIndex((stop) => stop.venueOrderId === row.venueOrderId);
      if (index === -1) throw new Error(`updateStop: unknown stop ${row.venueOrderId}`);
      if (row.triggeredOrderId && !this.state.orders.some((o) => o.venueOrderId === row.triggeredOrderId)) {
        throw new Error(`updateStop: unknown triggered order ${row.triggeredOrderId}`);
      }
      this.state.stops[index] = copy(row);
    }
  }
  async stopById(venueOrderId: string) {
    const row = this.state.stops.find((stop) => stop.venueOrderId === venueOrderId);
    return row ? copy(row) : null;
  }
  async stopByClientId(clientOrderId: string) {
    const row = this.state.stops.find((stop) => stop.clientOrderId === clientOrderId);
    return row ? copy(row) : null;
  }
  async resting() {
    return {
      orders: await this.openOrders(),
      stops: this.state.stops.filter((stop) => stop.status === 'open').map(copy),
    };
  }
  async orderById(venueOrderId: string) {
    const row = this.state.orders.find((order) => order.venueOrderId === venueOrderId);
    return row ? copy(row) : null;
  }
  async orderByClientId(clientOrderId: string) {
    const row = this.state.orders.find((order) => order.clientOrderId === clientOrderId);
    return row ? copy(row) : null;
  }
  private async openOrders(symbol?: string) {
    return this.state.orders
      .filter(
        (order) =>
          (order.status === 'open' || order.status === 'partially_filled') &&
          (symbol === undefined || order.symbol === symbol),
      )
      .map(copy);
  }
  private insertOrder(row: PaperOrderRow) {
    if (this.state.orders.some((order) => order.clientOrderId === row.clientOrderId)) {
      throw new DuplicateClientOrderIdError(row.clientOrderId);
    }
    this.state.orders.push(copy(row));
  }
  private updateOrder(row: PaperOrderRow) {
    const index = this.state.orders.findIndex((order) => order.venueOrderId === row.venueOrderId);
    if (index === -1) throw new Error(`updateOrder: unknown order ${row.venueOrderId}`);
    this.state.orders[index] = copy(row);
  }
  private insertFills(rows: PaperFillRow[]) {
    for (const row of rows) {
      if (!this.state.orders.some((order) => order.venueOrderId === row.venueOrderId)) {
        throw new Error(`insertFills: unknown order ${row.venueOrderId}`);
      }
      this.state.fills.push(copy(row));
    }
  }
  async fills(symbol: string, since?: number) {
    return this.state.fills
      .filter((fill) => fill.symbol === symbol && (since === undefined || fill.timestamp >= since))
      .map(copy);
  }
  async funding(symbol: string, since?: number) {
    return this.state.funding
      .filter((row) => row.symbol === symbol && (since === undefined || row.timestamp >= since))
      .map(copy);
  }
  async positions() {
    return [...this.state.positions.values()].map(copy);
  }
  async savePosition(row: PaperPositionRow) {
    this.state.positions.set(row.symbol, copy(row));
  }
  async leverage(symbol: string) {
    return this.state.leverage.get(symbol) ?? null;
  }
  async saveLeverage(symbol: string, leverage: number) {
    this.state.leverage.set(symbol, leverage);
  }
  async saveMarginMode(symbol: string, mode: 'isolated' | 'cross') {
    const position = this.state.positions.get(symbol);
    if (position) this.state.positions.set(symbol, { ...position, marginMode: mode });
  }
}

export class InMemoryPaperLedgerStore implements PaperLedgerStore {
  private readonly accounts = new Map<string, AccountState>();
  private readonly queues = new Map<string, Promise<unknown>>();
  transactions = 0;

  transact<T>(accountId: string, work: (ledger: PaperLedger) => Promise<T>): Promise<T> {
    const previous = this.queues.get(accountId) ?? Promise.resolve();
    const run = previous.then(async () => {
      this.transactions += 1;
      const staged = copy(this.accounts.get(accountId) ?? emptyState());
      const result = await work(new InMemoryLedger(staged));
      this.accounts.set(accountId, staged);
      return result;
    });
    this.queues.set(
      accountId,
      run.catch(() => undefined),
    );
    return run;
  }

  /** Reads of the committed rows, without waiting for the account's transactions. */
  read<T>(accountId: string, work: (ledger: PaperLedgerReader) => Promise<T>): Promise<T> {
    return work(new InMemoryLedger(copy(this.accounts.get(accountId) ?? emptyState())));
  }

  async accountsWithOpenOrders(): Promise<string[]> {
    return [...this.accounts.entries()]
      .filter(
        ([, state]) =>
          state.orders.some((order) => order.status === 'open' || order.status === 'partially_filled') ||
          state.stops.some((stop) => stop.status === 'open'),
      )
      .map(([accountId]) => accountId);
  }

  /** Test inspection: the committed rows of an account. */
  snapshot(accountId: string): AccountState {
    return copy(this.accounts.get(accountId) ?? emptyState());
  }
}
