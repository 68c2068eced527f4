import type { AccountMarketType, OrderSide, OrderStatus, OrderType, StopOrderStatus } from '../gateway';

/**
 * Persistence of paper accounts: balances, orders, fills and futures positions. Amounts are decimal strings
 * (PostgreSQL `numeric` on the server). All changes of one account happen inside `transact`, one at a time,
 * and commit together — a crash never leaves an order without its balance change.
 */

export interface PaperBalanceRow {
  asset: string;
  /** Available. */
  free: string;
  /** Reserved by open orders and futures margin. */
  used: string;
}

export interface PaperOrderRow {
  venueOrderId: string;
  /** Unique per account. */
  clientOrderId: string;
  marketType: AccountMarketType;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  /** Limit price; null for market orders. */
  price: string | null;
  amount: string;
  filled: string;
  /** Σ price × amount of the fills, in quote currency. */
  cost: string;
  fee: string;
  feeCurrency: string;
  status: OrderStatus;
  reduceOnly: boolean;
  /** Asset and amount this order still holds in `used` (quote for spot buys, base for spot sells, margin). */
  reservedAsset: string | null;
  reserved: string;
  createdAt: number;
  updatedAt: number;
  /** Resting orders have been matched against the price path up to this time. */
  checkedUntil: number;
}

export interface PaperFillRow {
  venueTradeId: string;
  venueOrderId: string;
  marketType: AccountMarketType;
  symbol: string;
  side: OrderSide;
  price: string;
  amount: string;
  cost: string;
  fee: string;
  feeCurrency: string;
  takerOrMaker: 'taker' | 'maker';
  /** Futures: profit or loss realised by this fill. */
  realizedPnl: string;
  timestamp: number;
}

/**
 * A stop resting on the venue: on futures a reduce-only stop-market, on spot a stop-limit. Its client id is
 * unique among the account's stops (a namespace of its own, as Binance's algo orders); once triggered it names
 * the order it became. A spot stop-limit's limit order is in the account's orders from its placement on (as
 * Binance's STOP_LOSS_LIMIT is one order, NEW and not working until triggered): it holds the stop's
 * reservation and its limit price, and is matched only once the stop triggered.
 */
export interface PaperStopRow {
  venueOrderId: string;
  clientOrderId: string;
  marketType: AccountMarketType;
  symbol: string;
  /** The side of the market order it sends. */
  side: OrderSide;
  amount: string;
  triggerPrice: string;
  /**
   * A stop-limit's limit price: its limit order's price (read with the stop, never written with it); null for a
   * stop-market.
   */
  limitPrice: string | null;
  status: StopOrderStatus;
  /**
   * The order it sent (in the account's orders): a stop-market's is null until triggered; a stop-limit's limit
   * order is named from its placement on (the gateway shows it once triggered).
   */
  triggeredOrderId: string | null;
  createdAt: number;
  updatedAt: number;
  /** An open stop has been checked against the price path up to this time. */
  checkedUntil: number;
}

export interface PaperPositionRow {
  symbol: string;
  /** Signed: positive long, negative short. */
  amount: string;
  entryPrice: string;
  leverage: number;
  /** Isolated or cross (as set for the symbol; cross until set otherwise). */
  marginMode?: 'isolated' | 'cross';
  /** Margin held for this position (in `used`). */
  margin: string;
  updatedAt: number;
}

/**
 * A futures funding payment the paper venue settled on a position (issue 19): one per symbol and funding time
 * the position was held through.
 */
export interface PaperFundingRow {
  /** Unique per account: the symbol and the funding time. */
  id: string;
  symbol: string;
  /** Signed, in `currency`: positive received, negative paid. */
  amount: string;
  currency: string;
  /** The funding rate applied (per 8 hours). */
  rate: string;
  /** The venue's price at the funding time. */
  price: string;
  /** The position held then (signed: negative short). */
  position: string;
  timestamp: number;
}

/** What can be read of one account's ledger; each read is one consistent statement. */
export interface PaperLedgerReader {
  balances(): Promise<PaperBalanceRow[]>;
  /**
   * The balances in one read, or null while orders or stops rest (they must be matched before balances are
   * read) or a futures position has funding to settle (it last changed before `fundingDue`, the last funding
   * time).
   */
  balancesIfNoOpenOrders(fundingDue: number): Promise<PaperBalanceRow[] | null>;
  /**
   * Whether orders or stops rest, or a futures position has funding to settle (it last changed before
   * `fundingDue`, the last funding time): then the account is matched (and its funding settled) before it is
   * read.
   */
  hasOpenOrders(fundingDue: number): Promise<boolean>;

  orderById(venueOrderId: string): Promise<PaperOrderRow | null>;
  orderByClientId(clientOrderId: string): Promise<PaperOrderRow | null>;

  stopById(venueOrderId: string): Promise<PaperStopRow | null>;
  stopByClientId(clientOrderId: string): Promise<PaperStopRow | null>;
  /**
   * What a matching pass starts from, in one read: the orders with status open or partially_filled and the
   * stops with status open, each oldest first.
   */
  resting(): Promise<{ orders: PaperOrderRow[]; stops: PaperStopRow[] }>;

  /** Oldest first. */
  fills(symbol: string, since?: number): Promise<PaperFillRow[]>;

  positions(): Promise<PaperPositionRow[]>;
  /** The funding paid or received on `symbol` since `since` (inclusive), oldest first. */
  funding(symbol: string, since?: number): Promise<PaperFundingRow[]>;
  /** Leverage chosen for a symbol before any position exists; null for the default. */
  leverage(symbol: string): Promise<number | null>;
}

/** What one transaction changes, written together. */
export interface PaperLedgerWrites {
  newOrders?: PaperOrderRow[];
  changedOrders?: PaperOrderRow[];
  /** Their orders are written already, or among `newOrders`. */
  fills?: PaperFillRow[];
  balances?: PaperBalanceRow[];
  newStops?: PaperStopRow[];
  /** Their triggered orders are written already, or among `newOrders`. */
  changedStops?: PaperStopRow[];
  funding?: PaperFundingRow[];
  /** Positions as they are now (their margin mode aside: it is set by `saveMarginMode`). */
  positions?: PaperPositionRow[];
}

/** One account's ledger, valid inside a `transact` callback only. */
export interface PaperLedger extends PaperLedgerReader {
  /**
   * What placing an order reads, in one read: the venue order id already using `clientOrderId` (null
   * when it is free) and the balances.
   */
  prepareOrder(clientOrderId: string): Promise<{ takenBy: string | null; balances: PaperBalanceRow[] }>;

  /**
   * Writes orders, fills, balances and stops in one go. Throws `DuplicateClientOrderIdError` when a new
   * order's (or stop's) client order id is already used by this account's orders (stops).
   */
  write(changes: PaperLedgerWrites): Promise<void>;

  savePosition(row: PaperPositionRow): Promise<void>;
  saveLeverage(symbol: string, leverage: number): Promise<void>;
  saveMarginMode(symbol: string, mode: 'isolated' | 'cross'): Promise<void>;
}

/**
 * Several accounts' ledgers in one transaction (see `PaperLedgerStore.transactMany`): what placing orders
 * reads and what they write, each in one statement for all of them.
 */
export interface PaperLedgerBatch {
  /** The account's ledger, in this transaction (the account must be one `transactMany` locked). */
  ledger(accountId: string): PaperLedger;
  /** `PaperLedger.prepareOrder` for several orders at once, in their order, with each account's positions. */
  prepareOrders(
    orders: { accountId: string; clientOrderId: string }[],
  ): Promise<{ takenBy: string | null; balances: PaperBalanceRow[]; positions: PaperPositionRow[] }[]>;
  /**
   * What placing stops reads, for several at once in a constant number of statements: the stop already using
   * each one's client id (null when it is free), in their order, and each account's balances, positions and
   * what rests on it (the matching pass before the placement starts from it).
   */
  prepareStops(stops: { accountId: string; clientOrderId: string }[]): Promise<{
    taken: (PaperStopRow | null)[];
    accounts: Map<string, PreparedAccount>;
  }>;
  /**
   * What a matching pass reads, for several accounts in a constant number of statements: each account's
   * balances, positions and what rests on it (`prepareStops` without stops).
   */
  prepareAccounts(accountIds: string[]): Promise<Map<string, PreparedAccount>>;
  /** `PaperLedger.write` for several accounts in one statement. */
  write(changes: { accountId: string; writes: PaperLedgerWrites }[]): Promise<void>;
}

/** One account as a batch read it (`PaperLedgerBatch.prepareStops`, `prepareAccounts`). */
export interface PreparedAccount {
  balances: PaperBalanceRow[];
  positions: PaperPositionRow[];
  resting: { orders: PaperOrderRow[]; stops: PaperStopRow[] };
}

/**
 * The account's ledger answering the reads a batch made already from them (`PreparedAccount`): its balances,
 * its positions (kept up to date with what this transaction saves) and its leverage settings (kept on the
 * position rows), and what rests on it once (the one matching pass); everything else goes to `ledger`.
 */
export function preparedLedger(ledger: PaperLedger, prepared: PreparedAccount): PaperLedger {
  let positions = prepared.positions;
  let resting: PreparedAccount['resting'] | null = prepared.resting;
  const answers: Partial<PaperLedger> = {
    balances: async () => prepared.balances,
    positions: async () => positions,
    leverage: async (symbol) => positions.find((row) => row.symbol === symbol)?.leverage ?? null,
    savePosition: async (row) => {
      positions = [...positions.filter((p) => p.symbol !== row.symbol), row];
      await ledger.savePosition(row);
    },
    resting: async () => {
      const once = resting ?? (await ledger.resting());
      resting = null;
      return once;
    },
  };
  return withAnswers(ledger, answers);
}

/** The ledger with some of its calls answered by `answers`; the others go to it. */
export function withAnswers(ledger: PaperLedger, answers: Partial<PaperLedger>): PaperLedger {
  return new Proxy(ledger, {
    get(target, key: keyof PaperLedger) {
      if (Object.hasOwn(answers, key)) return answers[key];
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface PaperLedgerStore {
  /** Runs `work` with exclusive access to the account's ledger; its writes commit together or not at all. */
  transact<T>(accountId: string, work: (ledger: PaperLedger) => Promise<T>): Promise<T>;
  /**
   * `transact` over several accounts at once: one transaction holding every account's lock (taken in one
   * order, so two of them never deadlock). Optional: a store without it places orders one at a time.
   */
  transactMany?<T>(accountIds: string[], work: (batch: PaperLedgerBatch) => Promise<T>): Promise<T>;
  /**
   * The balances of several accounts in one read, each null while that account has orders resting (see
   * `PaperLedgerReader.balancesIfNoOpenOrders`). Optional, like `transactMany`.
   */
  balancesIfNoOpenOrdersMany?(
    accountIds: string[],
    fundingDue: number,
  ): Promise<(PaperBalanceRow[] | null)[]>;
  /**
   * Runs `work` with read access and no lock: each read sees what is committed when it runs (for reads
   * that need no matching first; anything that changes the ledger goes through `transact`).
   */
  read<T>(accountId: string, work: (ledger: PaperLedgerReader) => Promise<T>): Promise<T>;
  /** Accounts holding open orders or open stops, for the matching tick. */
  accountsWithOpenOrders(): Promise<string[]>;
}

export class DuplicateClientOrderIdError extends Error {
  constructor(readonly clientOrderId: string) {
    super(`Client order id ${clientOrderId} already used`);
  }
}
