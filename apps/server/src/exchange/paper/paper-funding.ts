import { dec } from '../decimal';
import type { FundingPayment } from '../gateway';
import type { AccountSession } from './paper-account-session';
import type { PaperDesk } from './paper-desk';
import type { PaperFundingRow, PaperPositionRow } from './paper-ledger-store';

// Futures funding on the paper venue (issue 19): as Binance USD-M, every 8 hours (00:00, 08:00 and 16:00 UTC)
// an open position pays or receives its notional at that time's price times the funding rate. The paper rate
// is fixed: 0.01 % per 8 hours, the rate Binance settles at when its premium is flat (the interest part
// alone), so a long pays it and a short receives it.

export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
export const PAPER_FUNDING_RATE = dec('0.0001');
const SETTLEMENT_ASSET = 'USDT';

/** The last funding time at or before `time`: a position unchanged since before it has funding to settle. */
export function lastFundingTime(time: number): number {
  return Math.floor(time / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
}

/** The first funding time strictly after `time`. */
export function nextFundingTime(time: number): number {
  return (Math.floor(time / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
}

/**
 * Settles the funding times the position went through since it last changed (its `updatedAt`), up to and
 * including `until`, at the position it held then: each payment debits or credits the account's USDT in this
 * transaction, is kept as a funding row and moves `updatedAt` on to its time (so it is never paid twice).
 * Called before anything changes the position (a fill at a funding time comes after that funding) and before
 * the account is read. Returns whether the row changed (the caller saves it, unless it saves it anyway).
 */
export async function settleFunding(
  desk: PaperDesk,
  session: AccountSession,
  row: PaperPositionRow,
  until: number,
): Promise<boolean> {
  const amount = dec(row.amount);
  if (amount.isZero()) return false;
  let settled = false;
  for (let at = nextFundingTime(row.updatedAt); at <= until; at += FUNDING_INTERVAL_MS) {
    const price = desk.market.price(row.symbol, at);
    // Positive received, negative paid: a long (positive amount) pays a positive rate.
    const payment = amount.times(price).times(PAPER_FUNDING_RATE).neg().toDecimalPlaces(8);
    await session.change(SETTLEMENT_ASSET, { free: payment });
    session.addFunding({
      id: `funding-${row.symbol}-${at}`,
      symbol: row.symbol,
      amount: payment.toFixed(),
      currency: SETTLEMENT_ASSET,
      rate: PAPER_FUNDING_RATE.toFixed(),
      price: price.toFixed(),
      position: amount.toFixed(),
      timestamp: at,
    });
    row.updatedAt = at;
    settled = true;
  }
  return settled;
}

/** Every open position of the account settled up to `until` (before the account is read). */
export async function settleAllFunding(
  desk: PaperDesk,
  session: AccountSession,
  until: number,
): Promise<void> {
  for (const row of await session.ledger.positions()) {
    if (await settleFunding(desk, session, row, until)) await session.ledger.savePosition(row);
  }
}

/** A funding row as the gateway lists it (`fetchFundingHistory`). */
export function toFundingPayment(row: PaperFundingRow): FundingPayment {
  return {
    id: row.id,
    symbol: row.symbol,
    amount: row.amount,
    currency: row.currency,
    timestamp: row.timestamp,
  };
}
