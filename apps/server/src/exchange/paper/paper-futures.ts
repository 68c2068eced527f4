import { Decimal, ZERO, dec } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { OrderSide, Position } from '../gateway';
import type { AccountSession } from './paper-account-session';
import {
  requireFree,
  type CheckedOrder,
  type PaperDesk,
  type PlaceOrder,
  type TakerOrMaker,
  type Taking,
} from './paper-desk';
import { settleFunding } from './paper-funding';
import type { PaperLedger, PaperOrderRow, PaperPositionRow } from './paper-ledger-store';
import { liquidationPrices } from './paper-margin';
import { applyFill, roundUp, totalCost, totalFees, type Execution } from './paper-matching';

// One-way USDT futures: orders open, add to, reduce and close a position per symbol, with its margin.

const SETTLEMENT_ASSET = 'USDT';

/** How much of a position (signed: negative short) an order of `side` closes at most: none when it opens or adds. */
export function closable(position: Decimal, side: OrderSide): Decimal {
  return !position.isZero() && position.isNeg() === (side === 'buy') ? position.abs() : ZERO;
}

/**
 * Where an isolated position is liquidated: its margin used up but the maintenance margin (paper-margin). A
 * cross position's depends on the whole wallet: not shown.
 */
function isolatedLiquidationPrice(row: PaperPositionRow): string | null {
  if (row.marginMode !== 'isolated') return null;
  const [at] = liquidationPrices([row], ZERO, () => dec(row.entryPrice));
  return Decimal.max(at!.price, 0).toDecimalPlaces(8).toFixed();
}

/** An open position (its row's amount not zero) as the gateway shows it, valued at `mark`. */
export function toPosition(row: PaperPositionRow, mark: Decimal): Position {
  const amount = dec(row.amount);
  return {
    symbol: row.symbol,
    side: amount.isNeg() ? 'short' : 'long',
    amount: amount.abs().toFixed(),
    entryPrice: row.entryPrice,
    markPrice: mark.toFixed(),
    unrealizedPnl: mark.minus(row.entryPrice).times(amount).toFixed(),
    leverage: String(row.leverage),
    liquidationPrice: isolatedLiquidationPrice(row),
  };
}

/** The account's position on `symbol`: a flat one at its leverage when it has none. */
export async function positionOf(
  desk: PaperDesk,
  ledger: PaperLedger,
  symbol: string,
): Promise<PaperPositionRow> {
  const existing = (await ledger.positions()).find((row) => row.symbol === symbol);
  if (existing) return existing;
  const leverage = (await ledger.leverage(symbol)) ?? desk.defaultLeverage;
  return { symbol, amount: '0', entryPrice: '0', leverage, margin: '0', updatedAt: desk.clock() };
}

export const placeFutures: PlaceOrder = async (desk, session, checked) => {
  const { spec, request, amount, price } = checked;
  const now = desk.clock();
  const position = await positionOf(desk, session.ledger, spec.symbol);
  const closes = closable(dec(position.amount), request.side);
  if (request.reduceOnly && (closes.isZero() || amount.gt(closes))) {
    throw new InvalidOrderError(
      closes.isZero()
        ? 'Reduce-only order would open or increase a position'
        : `Reduce-only order of ${amount.toFixed()} exceeds the ${closes.toFixed()} position`,
    );
  }
  const taking = desk.take(checked, now);
  const { executions, taken, rest } = taking;

  // Margin for what the executions open (beyond what they close), fees, and the resting part.
  const opening = Decimal.max(0, taken.minus(closes));
  const openingShare = taken.isZero() ? ZERO : opening.div(taken);
  const openingMargin = roundUp(totalCost(executions).times(openingShare).div(position.leverage));
  const restReserve =
    rest.gt(0) && !request.reduceOnly
      ? roundUp(rest.times(price!).div(position.leverage).times(desk.makerRate.plus(1)))
      : ZERO;
  const usdt = await session.balance(SETTLEMENT_ASSET);
  const needed = openingMargin.plus(totalFees(executions, desk.takerRate)).plus(restReserve);
  requireFree(usdt, SETTLEMENT_ASSET, needed, 'margin');

  return bookFutures(desk, session, checked, now, taking, restReserve);
};

/**
 * Books a futures order taking `taking` from the book at `now`, once it is known to be allowed: its
 * executions against the position (fills, taker fees, PnL, margin), the margin reserved for what rests,
 * its status and its event. An order placed and the order a triggered stop sends both go through here.
 */
export function bookFutures(
  desk: PaperDesk,
  session: AccountSession,
  checked: CheckedOrder,
  now: number,
  taking: Taking,
  restReserve: Decimal,
): Promise<PaperOrderRow> {
  const order = desk.newOrderRow(checked, 'future', now);
  order.feeCurrency = SETTLEMENT_ASSET;
  return desk.book(session, order, checked.amount, taking, restReserve, SETTLEMENT_ASSET, (execution) =>
    executeFutures(desk, session, order, execution, 'taker', now),
  );
}

/**
 * Books one futures execution against the position (capped, for a reduce-only order, at what is left of
 * it): the margin and PnL it moves, the order's totals, a fill row and its event. Returns the amount it
 * filled: zero when a reduce-only order found nothing left to reduce.
 */
export async function executeFutures(
  desk: PaperDesk,
  session: AccountSession,
  order: PaperOrderRow,
  execution: Execution,
  role: TakerOrMaker,
  timestamp: number,
): Promise<Decimal> {
  const row = await positionOf(desk, session.ledger, order.symbol);
  // The funding times the position went through before this fill are paid first, at the position then.
  const funded = await settleFunding(desk, session, row, timestamp);
  let amount = execution.amount;
  if (order.reduceOnly) {
    // The position may have shrunk since the order was placed: never flip it.
    amount = Decimal.min(amount, closable(dec(row.amount), order.side));
    if (amount.isZero()) {
      if (funded) await session.ledger.savePosition(row);
      return ZERO;
    }
  }
  const fill = { price: execution.price, amount };
  const { fee, fromReserve } = desk.charge(order, fill, role);
  const change = applyFill(
    {
      amount: dec(row.amount),
      entryPrice: dec(row.entryPrice),
      margin: dec(row.margin),
      leverage: row.leverage,
    },
    order.side,
    fill.price,
    amount,
  );
  await session.change(SETTLEMENT_ASSET, {
    free: fromReserve
      .minus(change.marginAdded)
      .plus(change.marginReleased)
      .plus(change.realizedPnl)
      .minus(fee),
    used: fromReserve.neg().plus(change.marginAdded).minus(change.marginReleased),
  });
  await session.ledger.savePosition({
    symbol: order.symbol,
    amount: change.position.amount.toFixed(),
    entryPrice: change.position.entryPrice.toFixed(),
    leverage: row.leverage,
    margin: change.position.margin.toFixed(),
    // Never before a funding time already settled (see settleFunding).
    updatedAt: Math.max(timestamp, row.updatedAt),
  });
  desk.recordExecution(session, order, fill, fee, role, timestamp, change.realizedPnl);
  return amount;
}
