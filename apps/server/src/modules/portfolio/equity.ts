import { Decimal, toDecimal } from '@kairos/core';
import type { ExchangeGateway } from '../../exchange/gateway';
import { USD_STABLECOINS, valueBalances, type ValuedAsset } from '../../exchange/valuation';

/**
 * One account's "Total equity (est.)" (issue 21), the one definition the dashboard and Portfolio show: every
 * asset it holds valued at its USDT market's last price (dollar coins at par; an asset with no USDT market is
 * left out), and beside it "Available": the dollar coins free to spend now (not held by resting orders).
 */
export type AccountEquity = { total: Decimal; available: Decimal; assets: ValuedAsset[] };

export async function accountEquity(gateway: ExchangeGateway): Promise<AccountEquity> {
  const balances = await gateway.fetchBalances();
  const { assets, total } = await valueBalances(gateway, balances);
  const available = Object.entries(balances)
    .filter(([asset]) => USD_STABLECOINS.has(asset))
    .reduce((sum, [, b]) => sum.plus(Decimal.max(toDecimal(b.free ?? 0), 0)), new Decimal(0));
  return { total, available, assets };
}
