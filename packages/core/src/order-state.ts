import { DomainRuleError } from './errors';

export const ORDER_STATES = [
  'new',
  'submitted',
  'open',
  'partially_filled',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'unknown',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * Every move an order may make (DESIGN §6). Anything absent is impossible and raises an error rather
 * than silently overwriting what the venue said.
 * - `new` is the row persisted before the network call; it becomes `submitted` as the call goes out.
 * - `submitted → expired`: an IOC/FOK or market order the venue could not fill expires on creation.
 * - `unknown` follows a timeout and is settled only by reconciliation, to any venue-reported state.
 * - `partially_filled → partially_filled` and `unknown → unknown` record more fills / another
 *   inconclusive lookup; other states never transition to themselves (see `reconcileOrderState`).
 */
export const ORDER_TRANSITIONS: { readonly [S in OrderState]: readonly OrderState[] } = {
  new: ['submitted'],
  submitted: ['open', 'partially_filled', 'filled', 'rejected', 'cancelled', 'expired', 'unknown'],
  open: ['partially_filled', 'filled', 'cancelled', 'expired', 'unknown'],
  partially_filled: ['partially_filled', 'filled', 'cancelled', 'expired', 'unknown'],
  unknown: ['open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired', 'unknown'],
  filled: [],
  cancelled: [],
  rejected: [],
  expired: [],
};

const TERMINAL_ORDER_STATES: readonly OrderState[] = ['filled', 'cancelled', 'rejected', 'expired'];
/**
 * Orders that may still be live at the venue (so reconciliation must look at them and they may need
 * cancelling). `new` is not: it has not been sent yet. `unknown` is: it may well be resting.
 */
export const LIVE_ORDER_STATES: readonly OrderState[] = ['submitted', 'open', 'partially_filled', 'unknown'];

export class InvalidOrderTransitionError extends DomainRuleError {
  constructor(
    readonly from: OrderState,
    readonly to: OrderState,
  ) {
    super('INVALID_ORDER_TRANSITION', `An order cannot move from ${from} to ${to}`, { from, to });
  }
}

export function isOrderState(value: string): value is OrderState {
  return (ORDER_STATES as readonly string[]).includes(value);
}

export function canTransition(from: OrderState, to: OrderState): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** Returns the new state, or throws `InvalidOrderTransitionError` for an impossible move. */
export function transitionOrder(from: OrderState, to: OrderState): OrderState {
  if (!canTransition(from, to)) throw new InvalidOrderTransitionError(from, to);
  return to;
}

/**
 * Applies what the venue reports during reconciliation: the same state again is "no change" (an open
 * order polled twice), anything else must be a legal transition.
 */
export function reconcileOrderState(
  current: OrderState,
  reported: OrderState,
): { changed: boolean; state: OrderState } {
  if (current === reported) return { changed: false, state: current };
  return { changed: true, state: transitionOrder(current, reported) };
}

/** A terminal order never changes again: no more fills, nothing to cancel. */
export function isTerminal(state: OrderState): boolean {
  return TERMINAL_ORDER_STATES.includes(state);
}

/** Whether an order may still be live at the venue (see `LIVE_ORDER_STATES`). */
export function isOpenState(state: OrderState): boolean {
  return LIVE_ORDER_STATES.includes(state);
}
