import {
  type Decimal,
  type DecimalInput,
  realisedPnlFromTotals,
  toDecimal,
  toNumericString,
} from '@kairos/core';
import type { TradeDbRow } from '../../engine/trades-repo';

/**
 * One trade's ledger events added up (issue 19), as the repo's one aggregate gives them: the fills' legs
 * netted per fill, then split into the entries (a long's buys, a short's sells) and the exits.
 */
export type TradeLedgerTotals = {
  /** Fill events held (none: the trade never moved money through a fill the ledger holds). */
  fills: number;
  /** The quote paid and received over every fill. */
  quoteFlow: DecimalInput;
  /** The base still held: the base legs' net. */
  held: DecimalInput;
  entryQuantity: DecimalInput;
  entryCost: DecimalInput;
  exitQuantity: DecimalInput;
  /** The fees in the quote (a base fee at its fill's price, a third currency's at its recorded rate), positive paid. */
  fees: DecimalInput;
  /** Funding, positive received. */
  funding: DecimalInput;
  /** The trade's booked PnL events added up; null when it has none. */
  booked: DecimalInput | null;
};

/** What the trade's columns hold and the ledger answers instead. */
export type LedgerFigures = Pick<TradeDbRow, 'realisedPnl' | 'pnlPercent' | 'commission' | 'funding'>;

/** The columns' scale: the ledger's figure is answered as the column would have stored it. */
const SCALE = 18;
const fixed = (d: Decimal) => toDecimal(toNumericString(d, SCALE)).toFixed();

/**
 * A trade's realised PnL, PnL %, commission and funding from its ledger events — what `computeTradePnl`
 * gives from the fills, through core's `realisedPnlFromTotals` (what `realisedPnlFromLedger` uses too). PnL and PnL % are null until
 * something was exited (as the engine books them). A trade with no fill in the ledger (nothing ever filled)
 * keeps its columns, but for its booked PnL events when it has some.
 */
export function ledgerFigures(t: TradeLedgerTotals | undefined, row: LedgerFigures): LedgerFigures {
  if (!t || t.fills === 0) {
    return t?.booked != null ? { ...row, realisedPnl: fixed(toDecimal(t.booked)) } : row;
  }
  const entryQuantity = toDecimal(t.entryQuantity);
  const exitQuantity = toDecimal(t.exitQuantity);
  const averageEntry = entryQuantity.gt(0) ? toDecimal(t.entryCost).div(entryQuantity) : null;
  const fees = toDecimal(t.fees);
  const funding = toDecimal(t.funding);
  const pnl = realisedPnlFromTotals({ ...t, other: funding.minus(fees) });
  const exited = exitQuantity.gt(0);
  return {
    realisedPnl: exited ? fixed(pnl) : null,
    pnlPercent: exited && averageEntry ? fixed(pnl.div(averageEntry.times(exitQuantity)).times(100)) : null,
    commission: fixed(fees),
    funding: fixed(funding),
  };
}
