import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadLaterTexts } from '../../../i18n';
import { mockFetch } from '../../../testing/fetch-mock';
import { renderWithProviders } from '../../../testing/render';
import { OrderBook } from './order-book';

// The Trading screen's texts load with its route.
beforeAll(() => loadLaterTexts('trading'));
afterEach(() => vi.unstubAllGlobals());

describe('OrderBook', () => {
  it('says the spread in the quote currency, to the market’s tick (issue 21)', async () => {
    mockFetch((request) =>
      request.path === '/market/BTC-USDT/orderbook'
        ? {
            body: {
              success: true,
              results: {
                symbol: 'BTC/USDT',
                bids: [['53410.5', '1.2']],
                asks: [['53421.2', '0.8']],
                timestamp: 1,
              },
            },
          }
        : undefined,
    );
    renderWithProviders(
      <OrderBook
        symbol="BTC/USDT"
        lastPrice="53416.2"
        precision={{ amountStep: '0.00001', priceTick: '0.1' }}
      />,
    );
    const spread = await screen.findByText(/^Spread/, {}, { timeout: 3000 });
    expect(spread.textContent).toBe('Spread 10.7 USDT');
  });
});
