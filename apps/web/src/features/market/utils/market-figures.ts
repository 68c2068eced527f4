/** '0.01' → 2, '0.0001' → 4, '1' → 0; unknown → 2. */
export function decimalsOf(step: string | null | undefined): number {
  if (!step) return 2;
  const trimmed = step.includes('.') ? step.replace(/0+$/, '') : step;
  const fraction = trimmed.split('.')[1] ?? '';
  return Math.min(fraction.length, 10);
}

export interface DepthLevel {
  price: string;
  amount: string;
  /** Running total from the best price out, for the depth bar. */
  total: number;
  /** total ÷ the deepest total on either side, 0–1. */
  depth: number;
}

/**
 * Bids and asks with cumulative depth, best first; both sides share one scale so their bars compare.
 * Numbers here only size the bars: prices and amounts stay the server's strings.
 */
export function depthLevels(
  bids: ReadonlyArray<readonly [string, string]>,
  asks: ReadonlyArray<readonly [string, string]>,
  rows: number,
): { bids: DepthLevel[]; asks: DepthLevel[] } {
  const cumulate = (side: ReadonlyArray<readonly [string, string]>) => {
    let total = 0;
    return side.slice(0, rows).map(([price, amount]) => {
      total += Number(amount);
      return { price, amount, total, depth: 0 };
    });
  };
  const bidLevels = cumulate(bids);
  const askLevels = cumulate(asks);
  const deepest = Math.max(bidLevels.at(-1)?.total ?? 0, askLevels.at(-1)?.total ?? 0);
  for (const level of [...bidLevels, ...askLevels]) level.depth = deepest > 0 ? level.total / deepest : 0;
  return { bids: bidLevels, asks: askLevels };
}
