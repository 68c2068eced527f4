import { type Decimal, ZERO, dec } from '../decimal';
import type { PaperPositionRow } from './paper-ledger-store';

// The paper venue's futures margin rule (issue 19), shared by the positions it shows and its liquidation.

/** Maintenance margin rate of the paper venue's futures (Binance's first bracket for BTC). */
export const MAINTENANCE_MARGIN_RATE = dec('0.004');

/** Where a position is liquidated: a long at or below `price`, a short at or above. */
export type LiquidationPrice = { symbol: string; long: boolean; price: Decimal };

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), ZERO);

/**
 * Each open position's liquidation price, the account's wallet (USDT free + used) and the others' marks as
 * they are: the price `P` where the position's margin balance `B + (P − entry) × amount` falls to the
 * maintenance margin, `rate` × its notional at entry — `P = entry + (rate × entry × |amount| − B) ÷ amount`.
 * `B` is an isolated position's own margin (a long at 10×: 90.4 % of its entry, as Binance's simple formula);
 * a cross position's is the wallet less the isolated margins, plus the other cross positions' unrealised PnL
 * less their maintenance margins.
 */
export function liquidationPrices(
  rows: readonly PaperPositionRow[],
  wallet: Decimal,
  mark: (symbol: string) => Decimal,
): LiquidationPrice[] {
  const open = rows.filter((row) => !dec(row.amount).isZero());
  const isolated = (row: PaperPositionRow) => row.marginMode === 'isolated';
  const cross = open.filter((row) => !isolated(row));
  const crossWallet = wallet.minus(sum(open.filter(isolated).map((row) => dec(row.margin))));
  const unrealised = (row: PaperPositionRow) => mark(row.symbol).minus(row.entryPrice).times(row.amount);
  const maintenance = (row: PaperPositionRow) =>
    dec(row.entryPrice).times(dec(row.amount).abs()).times(MAINTENANCE_MARGIN_RATE);
  return open.map((row) => {
    const amount = dec(row.amount);
    const others = cross.filter((other) => other !== row);
    const balance = isolated(row)
      ? dec(row.margin)
      : crossWallet.plus(sum(others.map(unrealised))).minus(sum(others.map(maintenance)));
    const price = dec(row.entryPrice).plus(maintenance(row).minus(balance).div(amount));
    return { symbol: row.symbol, long: amount.gt(0), price };
  });
}
