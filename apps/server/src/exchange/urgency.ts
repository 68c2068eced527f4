import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Venue calls made for something that cannot wait — a stop-loss exit — go ahead of the queued polling in
 * their venue's throttle (issue 18). The mark travels with the async call chain, so every call the exit makes
 * (cancelling the take-profits, the market order, its lookups) is urgent, and nothing else is.
 */
const urgency = new AsyncLocalStorage<true>();

/** Runs `fn` with every venue call it makes marked urgent. */
export function urgently<T>(fn: () => Promise<T>): Promise<T> {
  return urgency.run(true, fn);
}

/** Whether the venue call being made now is urgent. */
export function isUrgent(): boolean {
  return urgency.getStore() === true;
}
