import { Decimal, dec } from '../decimal';
import type { AccountSession } from './paper-account-session';
import type { PaperDesk } from './paper-desk';
import { lastFundingTime, settleAllFunding } from './paper-funding';
import { executeFutures } from './paper-futures';
import { liquidateUnderwater } from './paper-liquidation';
import type { PaperOrderRow, PaperStopRow } from './paper-ledger-store';
import { isOpen } from './paper-rows';
import { executeSpot } from './paper-spot';
import { triggerStop } from './paper-stops';

// Resting limit orders and stops matched against the price path since they were last checked: on every
// poll, on the tick, and after a restart over the part of the path nobody looked at; then the futures funding
// due up to now.

/** Resting orders are matched against at most this much unobserved price history. */
const MAX_CATCH_UP_MS = 30 * 86_400_000;
/**
 * A resting order nothing happened to keeps its stored `checkedUntil` this long: the path is straight
 * between minute marks, so matching it again from there finds exactly what matching from now would, and
 * the tick does not write every resting order every second.
 */
const CHECKPOINT_MS = 60_000;

/**
 * Matching inside the account's transaction; returns the orders and stops that were resting, as they are
 * now. Stops are triggered in the order the path crossed them, the resting orders matched up to each
 * trigger first: a take-profit that filled before the stop shrank the position it closes, one the path
 * reached after it finds the position gone. After a restart (or a quiet account) this replays the part
 * of the path nobody looked at yet — the simulated path is a function of time, so what a stop missed
 * while Kairos was stopped is found from its `checkedUntil` (at most `MAX_CATCH_UP_MS` back).
 */
export async function matchIn(
  desk: PaperDesk,
  session: AccountSession,
): Promise<{ orders: PaperOrderRow[]; stops: PaperStopRow[] }> {
  const now = desk.clock();
  const { orders, stops } = await session.ledger.resting();
  const stored = new Map(orders.map((order) => [order.venueOrderId, order.checkedUntil]));
  // Limit orders of spot stop-limits not triggered yet: resting, not working.
  const armed = new Set(
    stops.filter((stop) => stop.limitPrice !== null).map((stop) => stop.triggeredOrderId),
  );
  const working = orders.filter((order) => !armed.has(order.venueOrderId));
  const triggers = stops
    .map((stop, index) => ({ stop, index, at: triggerTime(desk, stop, now) }))
    .filter((t): t is { stop: PaperStopRow; index: number; at: number } => t.at !== null)
    .sort((a, b) => a.at - b.at || a.index - b.index);
  for (const { stop, at } of triggers) {
    await matchOrders(desk, session, working, at, now);
    await triggerStop(desk, session, stop, at, orders);
    const limitOrder = orders.find((order) => order.venueOrderId === stop.triggeredOrderId);
    if (stop.limitPrice !== null && limitOrder) working.push(limitOrder);
  }
  await matchOrders(desk, session, working, now, now);
  for (const order of working) {
    // Nothing happened to it: its stored progress is moved on once a minute (see CHECKPOINT_MS).
    if (isOpen(order) && now - stored.get(order.venueOrderId)! >= CHECKPOINT_MS) session.saveOrder(order);
  }
  for (const stop of stops) {
    if (stop.status !== 'open') continue;
    const checkedBefore = stop.checkedUntil;
    stop.checkedUntil = now;
    if (now - checkedBefore >= CHECKPOINT_MS) session.saveStop(stop);
  }
  // The funding of the positions up to now (issue 19), before the account is read. A spot account's passes
  // (something of its own rests) skip the read of positions it cannot have, and so do the passes after one
  // that settled them up to the last funding time (fills settle their own position as they come).
  const resting = [...orders, ...stops];
  const due = lastFundingTime(now);
  if (
    (resting.length === 0 || resting.some((row) => row.marketType === 'future')) &&
    (desk.fundingSettled.get(session.accountId) ?? -Infinity) < due
  ) {
    await settleAllFunding(desk, session, now);
    session.fundingSettledUntil = due;
  }
  // Then what the price and the funding did to the margin (issue 19): a position its margin no longer holds is
  // liquidated at the mark price. Read only when this process does not know the liquidation prices already.
  if (resting.length === 0 || resting.some((row) => row.marketType === 'future')) {
    await liquidateUnderwater(desk, session, stops, now);
  }
  return { orders, stops };
}

/**
 * Matches the resting limit orders against the path up to `until` (≤ `now`): as makers, at their own
 * price, at most the book's depth per minute (so a large order fills over several minutes).
 */
async function matchOrders(
  desk: PaperDesk,
  session: AccountSession,
  orders: PaperOrderRow[],
  until: number,
  now: number,
) {
  const { market } = desk;
  for (const order of orders) {
    if (order.type !== 'limit' || order.price === null || !isOpen(order)) continue;
    if (order.checkedUntil >= until) continue;
    const limit = dec(order.price);
    const from = Math.max(order.checkedUntil, now - MAX_CATCH_UP_MS);
    const before = order.filled;
    for (const segment of market.pathSegments(order.symbol, from, until)) {
      const crossed = order.side === 'buy' ? segment.low.lte(limit) : segment.high.gte(limit);
      if (!crossed) continue;
      const extreme = order.side === 'buy' ? segment.low : segment.high;
      const depth = market.crossingDepth(order.symbol, order.side, limit, extreme, segment.end);
      const remaining = dec(order.amount).minus(order.filled);
      const amount = Decimal.min(remaining, depth);
      const execution = { price: limit, amount };
      if (order.marketType === 'future') {
        const done = await executeFutures(desk, session, order, execution, 'maker', segment.end);
        if (done.isZero()) {
          await desk.closeOrder(session, order, 'expired');
          break;
        }
      } else {
        await executeSpot(desk, session, desk.spec(order.symbol), order, execution, 'maker', segment.end);
      }
      if (!isOpen(order)) break;
    }
    order.checkedUntil = until;
    if (order.filled !== before || !isOpen(order)) {
      session.recordOrder(order);
      session.saveOrder(order);
    }
  }
}

/**
 * When the path first crossed the stop's trigger since it was last checked (the end of that piece of
 * path: the venue's price, as Binance's mark price, is only known at its points), or null.
 */
function triggerTime(desk: PaperDesk, stop: PaperStopRow, now: number): number | null {
  const trigger = dec(stop.triggerPrice);
  const from = Math.max(stop.checkedUntil, now - MAX_CATCH_UP_MS);
  for (const segment of desk.market.pathSegments(stop.symbol, from, now)) {
    const crossed = stop.side === 'sell' ? segment.low.lte(trigger) : segment.high.gte(trigger);
    if (crossed) return segment.end;
  }
  return null;
}
