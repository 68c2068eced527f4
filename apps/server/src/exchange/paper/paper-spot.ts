import { ZERO } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { AccountSession } from './paper-account-session';
import { requireFree, type PaperDesk, type PlaceOrder, type TakerOrMaker } from './paper-desk';
import type { PaperOrderRow } from './paper-ledger-store';
import { roundUp, totalCost, totalFees, type Execution } from './paper-matching';
import type { PaperMarketSpec } from './paper-markets';

// Spot orders: paid from and into the account's balances of the market's base and quote.

export const placeSpot: PlaceOrder = async (desk, session, checked) => {
  const { spec, request, amount, price } = checked;
  const now = desk.clock();
  const base = await session.balance(spec.base);
  const quote = await session.balance(spec.quote);
  if (request.reduceOnly) {
    // Spot positions are holdings: reduce-only may only sell what is held.
    if (request.side === 'buy')
      throw new InvalidOrderError('Reduce-only buy would open or increase a position');
    if (base.free.plus(base.used).lt(amount)) {
      throw new InvalidOrderError(`Reduce-only sell of ${amount.toFixed()} exceeds the ${spec.base} held`);
    }
  }
  const taking = desk.take(checked, now);
  const { executions, rest } = taking;
  const order = desk.newOrderRow(checked, 'spot', now);

  // Check the whole order first; nothing changes unless it can be paid for.
  let restReserve = ZERO;
  if (request.side === 'buy') {
    restReserve = rest.gt(0) ? roundUp(rest.times(price!).times(desk.makerRate.plus(1))) : ZERO;
    const needed = totalCost(executions).plus(totalFees(executions, desk.takerRate)).plus(restReserve);
    requireFree(quote, spec.quote, needed, 'balance');
  } else {
    restReserve = rest;
    requireFree(base, spec.base, amount, 'balance');
  }

  const reserveAsset = request.side === 'buy' ? spec.quote : spec.base;
  return desk.book(session, order, amount, taking, restReserve, reserveAsset, (execution) =>
    executeSpot(desk, session, spec, order, execution, 'taker', now),
  );
};

/** Books one spot execution: balances, the order's totals, a fill row and its event. */
export async function executeSpot(
  desk: PaperDesk,
  session: AccountSession,
  spec: PaperMarketSpec,
  order: PaperOrderRow,
  execution: Execution,
  role: TakerOrMaker,
  timestamp: number,
): Promise<void> {
  const cost = execution.price.times(execution.amount);
  const { fee, fromReserve } = desk.charge(order, execution, role);
  if (order.side === 'buy') {
    // Reserved quote (resting part) goes back to free, then the purchase is paid from free.
    await session.change(spec.quote, { free: fromReserve.minus(cost).minus(fee), used: fromReserve.neg() });
    await session.change(spec.base, { free: execution.amount });
  } else {
    await session.change(spec.base, {
      free: execution.amount.minus(fromReserve).neg(),
      used: fromReserve.neg(),
    });
    await session.change(spec.quote, { free: cost.minus(fee) });
  }
  desk.recordExecution(session, order, execution, fee, role, timestamp, ZERO);
}
