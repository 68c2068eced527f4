import { type Decimal, ZERO, dec } from '../decimal';
import type { AccountSession } from './paper-account-session';
import type { CheckedOrder, PaperDesk } from './paper-desk';
import { nextFundingTime } from './paper-funding';
import { bookFutures } from './paper-futures';
import type { PaperPositionRow, PaperStopRow } from './paper-ledger-store';
import { liquidationPrices, type LiquidationPrice } from './paper-margin';

// Liquidation on the paper venue's futures (issue 19). A position is liquidated when its margin balance falls
// below its maintenance margin at the mark price (the venue's price path): an isolated position's margin plus
// its unrealised PnL, a cross position's share of the wallet — the USDT wallet (free and used) less the
// isolated margins, plus the other cross positions' unrealised PnL less their maintenance margins — against
// `MAINTENANCE_MARGIN_RATE` (0.4 %, paper-margin) of its notional at that price. The venue then closes the whole position at
// the mark price: one reduce-only market order with a client id of its own (`liquidation-…`), booked as any
// fill (taker fee, realised PnL, margin released). A loss beyond what the wallet holds is the venue's
// (Binance's insurance fund): the USDT wallet never goes below zero. The stops resting on the symbol are
// cancelled, as Binance expires a liquidated position's stop orders: the stop did not fire, the venue closed
// the position. Kairos books the close from the venue's fill of the liquidation order (its `liquidation` flag)
// when reconciliation's sweep finds the position gone (engine/position-check.ts), closed for "liquidation".

/** Client ids of liquidation orders: outside Kairos' (alphanumeric) ones. */
export const LIQUIDATION_ORDER_ID_PREFIX = 'liquidation-';
const SETTLEMENT_ASSET = 'USDT';

/** Where each open position of an account is liquidated: a long at or below `price`, a short at or above. */
export interface LiquidationWatch {
  prices: LiquidationPrice[];
  /**
   * Until when it holds without reading the account again: the next funding time (funding moves the wallet).
   * A change this process makes to the account's positions or USDT forgets it at once (fills settle their own
   * position, as for funding); one made by another process is seen at its next read.
   */
  until: number;
}

/** Whether the mark is through a liquidation price. */
function through(p: LiquidationPrice, mark: Decimal): boolean {
  return p.long ? mark.lte(p.price) : mark.gte(p.price);
}

/**
 * Liquidates, at `now`'s mark, every futures position of the account its margin no longer holds, and keeps
 * what it computed on the session (`liquidationWatch`) for the next passes. A pass whose process knows the
 * account's liquidation prices and finds no mark through them reads nothing.
 */
export async function liquidateUnderwater(
  desk: PaperDesk,
  session: AccountSession,
  stops: readonly PaperStopRow[],
  now: number,
): Promise<void> {
  const mark = (symbol: string) => desk.market.price(symbol, now);
  const known = desk.liquidationWatch.get(session.accountId);
  if (known && known.until > now && !known.prices.some((p) => through(p, mark(p.symbol)))) return;
  for (let round = 0; round < 8; round += 1) {
    const rows = await session.ledger.positions();
    const usdt = await session.balance(SETTLEMENT_ASSET);
    const prices = liquidationPrices(rows, usdt.free.plus(usdt.used), mark);
    const underwater = prices.find((p) => through(p, mark(p.symbol)));
    if (!underwater) {
      session.liquidationWatch = { prices, until: nextFundingTime(now) };
      return;
    }
    await liquidate(
      desk,
      session,
      rows.find((row) => row.symbol === underwater.symbol)!,
      stops,
      now,
    );
  }
}

/** Closes the position at the mark price, cancels its stops, and takes a loss beyond the wallet. */
async function liquidate(
  desk: PaperDesk,
  session: AccountSession,
  row: PaperPositionRow,
  stops: readonly PaperStopRow[],
  now: number,
): Promise<void> {
  const spec = desk.spec(row.symbol);
  const held = dec(row.amount);
  const amount = held.abs();
  const side = held.isNeg() ? 'buy' : 'sell';
  const checked: CheckedOrder = {
    spec,
    request: {
      symbol: spec.symbol,
      side,
      type: 'market',
      amount: amount.toFixed(),
      reduceOnly: true,
      clientOrderId: `${LIQUIDATION_ORDER_ID_PREFIX}${desk.newId()}`,
    },
    amount,
    price: null,
  };
  const execution = { price: desk.market.price(spec.symbol, now), amount };
  await bookFutures(
    desk,
    session,
    checked,
    now,
    { executions: [execution], taken: amount, rest: ZERO },
    ZERO,
  );
  const usdt = await session.balance(SETTLEMENT_ASSET);
  const wallet = usdt.free.plus(usdt.used);
  if (wallet.isNeg()) await session.change(SETTLEMENT_ASSET, { free: wallet.neg() });
  for (const stop of stops) {
    if (stop.status !== 'open' || stop.marketType !== 'future' || stop.symbol !== spec.symbol) continue;
    stop.status = 'cancelled';
    stop.updatedAt = now;
    stop.checkedUntil = now;
    session.saveStop(stop);
    session.recordStop(stop);
  }
}
