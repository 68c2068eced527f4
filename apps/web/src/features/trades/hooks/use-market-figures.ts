import { useMemo } from 'react';
import { type Numeric } from '../../../lib/format';
import { useMoney } from '../../../lib/money';
import { useMarketPrecision } from '../../market/api/market-precision';
import { splitSymbol } from '../utils/trade-figures';

/** Where a figure was traded: its account (whose venue's markets say the step) and symbol, as rows carry them. */
export interface MarketOf {
  tradingAccountId: string;
  symbol: string;
}

/**
 * Quantities and prices of `rows` (trades, orders) on their markets through the one money formatter: a quantity in
 * its base asset to its market's amount step, a price in its quote currency to the market's tick (while the
 * markets load, or for a market the venue no longer lists, six significant digits).
 */
export function useMarketFigures(rows: readonly MarketOf[] = []) {
  const money = useMoney();
  const precisionOf = useMarketPrecision(rows.map((row) => row.tradingAccountId));
  return useMemo(
    () => ({
      /** `unit: false` where a column header or a figure sets the unit apart. */
      quantity: (where: MarketOf, value: Numeric | null | undefined, { unit = true } = {}) =>
        money.quantity(
          value,
          unit ? splitSymbol(where.symbol).base : undefined,
          precisionOf(where.tradingAccountId, where.symbol)?.amountStep,
        ),
      price: (where: MarketOf, value: Numeric | null | undefined, { unit = true } = {}) =>
        money.price(
          value,
          splitSymbol(where.symbol).quote,
          precisionOf(where.tradingAccountId, where.symbol)?.priceTick,
          unit,
        ),
    }),
    [money, precisionOf],
  );
}
export type MarketFigures = ReturnType<typeof useMarketFigures>;
