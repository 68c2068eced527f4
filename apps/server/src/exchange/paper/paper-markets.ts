/** The pairs the paper venue lists, with venue-like filters and the parameters of their simulated path. */
export interface PaperMarketSpec {
  symbol: string;
  base: string;
  quote: string;
  /** Price at the simulation epoch; paths wander around it (mean-reverting at the daily scale). */
  startPrice: string;
  priceTick: string;
  amountStep: string;
  minAmount: string;
  minNotional: string;
  /** Annualised volatility of the simulated path. */
  annualVolatility: number;
  /** Quote value shown at the best level of each side; deeper levels grow. */
  levelDepthQuote: number;
  /** Half the bid/ask spread, in basis points of the mid. */
  halfSpreadBps: number;
}

function usdt(
  base: string,
  startPrice: string,
  priceTick: string,
  amountStep: string,
  annualVolatility: number,
  levelDepthQuote: number,
  halfSpreadBps = 1,
): PaperMarketSpec {
  return {
    symbol: `${base}/USDT`,
    base,
    quote: 'USDT',
    startPrice,
    priceTick,
    amountStep,
    minAmount: amountStep,
    minNotional: '5',
    annualVolatility,
    levelDepthQuote,
    halfSpreadBps,
  };
}

export const PAPER_MARKETS: readonly PaperMarketSpec[] = [
  usdt('BTC', '65000', '0.01', '0.00001', 0.55, 60_000),
  usdt('ETH', '3200', '0.01', '0.0001', 0.65, 40_000),
  usdt('SOL', '150', '0.01', '0.001', 0.85, 20_000),
  usdt('BNB', '580', '0.01', '0.001', 0.55, 15_000),
  usdt('XRP', '0.55', '0.0001', '0.1', 0.75, 15_000),
  usdt('ADA', '0.45', '0.0001', '0.1', 0.8, 10_000),
  usdt('DOGE', '0.15', '0.00001', '1', 0.9, 10_000),
  usdt('AVAX', '30', '0.01', '0.01', 0.9, 8_000),
  usdt('LINK', '15', '0.001', '0.01', 0.85, 8_000),
  usdt('DOT', '6.5', '0.001', '0.01', 0.8, 6_000),
  usdt('LTC', '80', '0.01', '0.001', 0.7, 8_000),
  usdt('TRX', '0.12', '0.00001', '1', 0.6, 6_000),
  // EUR/USDT converts balances for EUR display: low volatility, tight spread.
  usdt('EUR', '1.08', '0.0001', '0.1', 0.07, 50_000, 0.5),
];
