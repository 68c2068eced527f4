import type { TradingAccount } from '@kairos/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock';
import { createTestQueryClient } from '../../../testing/render';
import { tradingAccountsQueryOptions } from '../../accounts/api/get-trading-accounts';
import { marketSources, useMarketPrecision } from './market-precision';

const account = (id: string, exchange: string, marketType: 'spot' | 'future' = 'spot') =>
  ({ id, exchange, marketType, sandbox: false }) as TradingAccount;
const accounts = [
  account('a-paper', 'paper'),
  account('b-paper', 'paper'),
  account('c-binance', 'binance'),
  account('d-binance-futures', 'binance', 'future'),
];

function render(ids: string[], cached: TradingAccount[] | undefined) {
  const client = createTestQueryClient();
  if (cached) client.setQueryData(tradingAccountsQueryOptions().queryKey, cached);
  const { requests } = mockFetch((request) => {
    if (request.path !== '/market/pairs') return undefined;
    const id = new URL(request.url, 'http://localhost').searchParams.get('accountId');
    const step = id?.includes('binance') ? '0.001' : '0.00001';
    return {
      body: { success: true, results: [{ symbol: 'BTC/USDT', amountStep: step, priceTick: '0.01' }] },
    };
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useMarketPrecision(ids), { wrapper });
  return {
    hook,
    pairsAsked: () => requests.filter((request) => request.path === '/market/pairs'),
    accountsAsked: () => requests.filter((request) => request.path === '/api/trading-accounts'),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('market precision (issue 21: one GET /market/pairs per venue, not per account)', () => {
  it('groups accounts by venue, market type and testnet', () => {
    expect(
      Object.fromEntries(marketSources(['c-binance', 'b-paper', 'a-paper', 'd-binance-futures'], accounts)),
    ).toEqual({
      'a-paper': 'a-paper',
      'b-paper': 'a-paper',
      'c-binance': 'c-binance',
      'd-binance-futures': 'd-binance-futures',
    });
    // Unknown accounts (the list not loaded) ask for themselves.
    expect(Object.fromEntries(marketSources(['b-paper', 'a-paper'], undefined))).toEqual({
      'a-paper': 'a-paper',
      'b-paper': 'b-paper',
    });
  });

  it('asks once for two accounts on the same venue, and gives both their markets', async () => {
    const { hook, pairsAsked } = render(['a-paper', 'b-paper', 'c-binance'], accounts);
    await waitFor(() => expect(hook.result.current('c-binance', 'BTC/USDT')).toBeDefined());
    await waitFor(() => expect(hook.result.current('b-paper', 'BTC/USDT')).toBeDefined());
    expect(hook.result.current('b-paper', 'BTC/USDT')).toEqual({ amountStep: '0.00001', priceTick: '0.01' });
    expect(hook.result.current('c-binance', 'btc/usdt')).toEqual({ amountStep: '0.001', priceTick: '0.01' });
    expect(
      pairsAsked()
        .map((request) => request.url)
        .sort(),
    ).toEqual(['/market/pairs?accountId=a-paper', '/market/pairs?accountId=c-binance']);
  });

  it('asks per account while the accounts are not in the cache, and never fetches them itself', async () => {
    const { hook, pairsAsked, accountsAsked } = render(['a-paper', 'b-paper'], undefined);
    await waitFor(() => expect(hook.result.current('b-paper', 'BTC/USDT')).toBeDefined());
    expect(pairsAsked()).toHaveLength(2);
    expect(accountsAsked()).toHaveLength(0);
  });
});
