import { Decimal, toDecimal } from '@kairos/core';
import type { Balances, ExchangeGateway } from './gateway';

/** Currencies worth one USDT: valued, and billed, at par. */
export const USD_STABLECOINS: ReadonlySet<string> = new Set(['USDT', 'USD', 'USDC', 'BUSD', 'FDUSD']);

export type ValuedAsset = { asset: string; amount: Decimal; value: Decimal };

/** Every non-zero balance valued in USDT at the venue's last price; assets without a USDT market are skipped. */
export async function valueBalances(
  gateway: ExchangeGateway,
  balances: Balances,
): Promise<{ assets: ValuedAsset[]; total: Decimal }> {
  const markets = new Set((await gateway.listMarkets()).map((m) => m.symbol));
  const assets: ValuedAsset[] = [];
  for (const [asset, b] of Object.entries(balances)) {
    const amount = toDecimal(b.total);
    if (amount.lte(0)) continue;
    if (USD_STABLECOINS.has(asset)) {
      assets.push({ asset, amount, value: amount });
      continue;
    }
    const symbol = `${asset}/USDT`;
    if (!markets.has(symbol)) continue;
    const last = (await gateway.fetchTicker(symbol)).last;
    if (last) assets.push({ asset, amount, value: amount.times(last) });
  }
  return { assets, total: assets.reduce((s, a) => s.plus(a.value), new Decimal(0)) };
}
