import type { Bot, TradingAccount } from '@kairos/contract';
import type { Venue } from '../features/accounts/api/get-exchanges';
import type { MarketPair } from '../features/market/api/get-market-pairs';

// Whole objects as the server sends them: the web reads answers with the contract's schemas, so a
// test's answer has every field the contract gives it. Tests override what they look at.

export function serverTradingAccount(overrides: Partial<TradingAccount> = {}): TradingAccount {
  return {
    id: 'acc-1',
    nickname: 'Paper main',
    exchange: 'paper',
    marketType: 'spot',
    sandbox: false,
    apiKeyMask: null,
    usdtBalance: '10000',
    balanceUpdatedAt: null,
    status: 'active',
    lastError: null,
    withdrawRiskAcknowledgedAt: null,
    botCount: 0,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function serverBot(overrides: Partial<Bot> = {}): Bot {
  return {
    id: 'bot-1',
    nickname: 'BTC follower',
    isActive: false,
    isTrading: false,
    tradeCurrency: 'BTC',
    stableCoin: 'USDT',
    portfolioPercent: '25',
    fixedAmount: null,
    leveragePercent: '100',
    marginMode: 'isolated',
    monthlyGoalPercent: null,
    goalAccumulatedProfitPercent: '0',
    position: 'out',
    strategy: {
      id: 'st-1',
      nickname: 'Trend BTC',
      strategyKey: 'trend-btc',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    },
    tradingAccount: {
      id: 'acc-1',
      nickname: 'Paper main',
      exchange: 'paper',
      usdtBalance: '10000',
      sandbox: false,
    },
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function serverVenue(overrides: Partial<Venue> = {}): Venue {
  return {
    id: 'binance',
    name: 'Binance',
    marketTypes: ['spot', 'future'],
    sandbox: true,
    sandboxMarketTypes: ['spot', 'future'],
    sandboxKind: { spot: 'testnet', future: 'demo' },
    needsPassphrase: false,
    ...overrides,
  };
}

/** A market of `GET /market/pairs`: BTC/USDT in steps of 0.0001 BTC, priced in ticks of 0.1 USDT. */
export function serverMarket(overrides: Partial<MarketPair> = {}): MarketPair {
  return {
    symbol: 'BTC/USDT',
    base: 'BTC',
    quote: 'USDT',
    type: 'spot',
    amountStep: '0.0001',
    priceTick: '0.1',
    minAmount: null,
    minNotional: null,
    active: true,
    ...overrides,
  };
}
