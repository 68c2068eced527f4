import { DomainRuleError } from './errors';

export const TRADE_STATUSES = ['open', 'closing', 'closed', 'cancelled', 'error'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

/**
 * Trade lifecycle (DESIGN §6).
 * - `open`: entry sent or position held, ladder and stop managed.
 * - `closing`: an exit (signal, stop, push, admin close) is in flight.
 * - `closing → open`: the exit order was cancelled/expired and the position is still held.
 * - `cancelled`: the entry never filled, so there was never a position.
 * - `error`: a venue or funds failure recorded on this bot's trade. Not terminal: reconciliation (or an
 *   admin) settles it to what the venue shows — still open, closing, closed, or cancelled.
 * - `closed` and `cancelled` are terminal.
 */
export const TRADE_TRANSITIONS: { readonly [S in TradeStatus]: readonly TradeStatus[] } = {
  open: ['closing', 'closed', 'cancelled', 'error'],
  closing: ['open', 'closed', 'error'],
  error: ['open', 'closing', 'closed', 'cancelled'],
  closed: [],
  cancelled: [],
};

export class InvalidTradeTransitionError extends DomainRuleError {
  constructor(
    readonly from: TradeStatus,
    readonly to: TradeStatus,
  ) {
    super('INVALID_TRADE_TRANSITION', `A trade cannot move from ${from} to ${to}`, { from, to });
  }
}

export function isTradeStatus(value: string): value is TradeStatus {
  return (TRADE_STATUSES as readonly string[]).includes(value);
}

export function canTransitionTrade(from: TradeStatus, to: TradeStatus): boolean {
  return TRADE_TRANSITIONS[from].includes(to);
}

/** Returns the new status, or throws `InvalidTradeTransitionError` for an impossible move. */
export function transitionTrade(from: TradeStatus, to: TradeStatus): TradeStatus {
  if (!canTransitionTrade(from, to)) throw new InvalidTradeTransitionError(from, to);
  return to;
}

/**
 * Every allowed write of a status as `from>to`: the table's moves, and a status written again unchanged
 * (not a move). The repo turns this into its SQL guard, so no statement writes a move the table forbids.
 */
export const TRADE_STATUS_WRITES: readonly string[] = TRADE_STATUSES.flatMap((from) =>
  [from, ...TRADE_TRANSITIONS[from]].map((to) => `${from}>${to}`),
);

/** Closed and cancelled trades never change again. */
export function isTradeTerminal(status: TradeStatus): boolean {
  return TRADE_TRANSITIONS[status].length === 0;
}

/** Trades the engine still manages (ladder, stop, exits); a bot with one is `isTrading`. */
export function isTradeActive(status: TradeStatus): boolean {
  return status === 'open' || status === 'closing';
}

/** The statuses `isTradeActive` holds for, for queries. */
export const ACTIVE_TRADE_STATUSES: readonly TradeStatus[] = TRADE_STATUSES.filter(isTradeActive);
