/** Direction of a position. */
export type PositionSide = 'long' | 'short';

/** A bot's current position (spec §3): long, short or out. */
export type BotPosition = PositionSide | 'out';

/** Alert actions (DESIGN §5); `buy`/`sell`/`close` are aliases of `long`/`short`/`exit`. */
export const SIGNAL_ACTIONS = ['long', 'short', 'exit', 'buy', 'sell', 'close'] as const;
export type SignalAction = (typeof SIGNAL_ACTIONS)[number];

/** One order the executor places for a signal; also the `leg` of the client order id. */
export type OrderLeg = 'open_long' | 'open_short' | 'close_long' | 'close_short';

export interface SignalActionOptions {
  /** False on spot markets: a short signal then only closes a long, and never opens a short. */
  canShort?: boolean;
  /** False when the bot takes no new entries (inactive, monthly goal reached); exits still run. */
  canOpen?: boolean;
}

const CANONICAL_ACTION: Record<SignalAction, PositionSide | 'exit'> = {
  long: 'long',
  buy: 'long',
  short: 'short',
  sell: 'short',
  exit: 'exit',
  close: 'exit',
};

export function isSignalAction(value: string): value is SignalAction {
  return (SIGNAL_ACTIONS as readonly string[]).includes(value);
}

/**
 * Orders one bot places for a signal, in order: open when out, reverse (close then open) when on the
 * other side, close on exit. A signal in the direction already held, or an exit when out, does nothing.
 */
export function decideSignalAction(
  position: BotPosition,
  action: SignalAction,
  options: SignalActionOptions = {},
): OrderLeg[] {
  const { canShort = true, canOpen = true } = options;
  const wanted = CANONICAL_ACTION[action];
  if (wanted === position) return [];
  const legs: OrderLeg[] = [];
  if (position !== 'out') legs.push(position === 'long' ? 'close_long' : 'close_short');
  const opens = wanted !== 'exit' && canOpen && (wanted === 'long' || canShort);
  if (opens) legs.push(wanted === 'long' ? 'open_long' : 'open_short');
  return legs;
}

/**
 * Whether a signal claimed now is too late to act on (issue 20): its age — from the signal's own time, else
 * from its arrival — is past the strategy's max lag. Only entries and reversals expire: a late exit still
 * closes (it only reduces risk, as a paused strategy's exits do). A signal an admin resumed knowing it late
 * (`lateOk`) runs, and so does a retry, whose first attempt was in time and may have acted for some bots.
 */
export function lateSignal(
  alert: {
    action: 'long' | 'short' | 'exit';
    signalAt: Date | null;
    receivedAt: Date;
    attempts: number;
    lateOk: boolean;
  },
  maxLagSeconds: number,
  now: Date,
): { ageSeconds: number } | null {
  if (alert.action === 'exit' || alert.lateOk || alert.attempts > 1) return null;
  const ageSeconds = Math.floor((now.getTime() - (alert.signalAt ?? alert.receivedAt).getTime()) / 1000);
  return ageSeconds > maxLagSeconds ? { ageSeconds } : null;
}
