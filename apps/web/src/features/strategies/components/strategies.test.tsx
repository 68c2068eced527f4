import { describe, expect, it } from 'vitest';
import {
  emptyStrategyForm,
  strategyFormSchema,
  strategyToForm,
  toStrategyBody,
} from '../api/create-strategy';
import type { Strategy } from '../api/get-strategies';
import { alertMessage } from './strategy-webhook-dialog';

/** The first message per field, as the form shows it. */
function issues(form: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of strategyFormSchema.safeParse(form).error?.issues ?? []) {
    found[issue.path.join('.')] ??= issue.message;
  }
  return found;
}

describe('strategy form', () => {
  it('checks the name, key, pair, ladder, stop-loss and signal delay', () => {
    expect(
      issues({
        ...emptyStrategyForm,
        strategyKey: 'a b',
        tradeCurrency: '',
        takeProfits: [
          { percent: '1', sizePercent: '60' },
          { percent: 'x', sizePercent: '50' },
        ],
        stopLossPercent: '-1',
        maxLagSeconds: '2',
      }),
    ).toEqual({
      nickname: 'This field is required',
      strategyKey: 'strategies.errors.key',
      tradeCurrency: 'This field is required',
      'takeProfits.1.percent': 'Please enter a valid amount',
      takeProfits: 'strategies.errors.takeProfitSizes',
      stopLossPercent: 'Please enter a valid amount',
      maxLagSeconds: 'strategies.errors.maxLag',
    });
    expect(issues({ ...emptyStrategyForm, nickname: 'Trend', stopLossPercent: '', takeProfits: [] })).toEqual(
      {},
    );
  });

  it('sends the ladder as tp1..tpN with decimal strings, and reads it back without database zeros', () => {
    const body = toStrategyBody({
      ...emptyStrategyForm,
      nickname: ' Trend ',
      tradeCurrency: 'eth',
      takeProfits: [
        { percent: '1,5', sizePercent: '50' },
        { percent: '3', sizePercent: '50' },
      ],
      stopLossPercent: '',
    });
    expect(body).toMatchObject({
      nickname: 'Trend',
      tradeCurrency: 'ETH',
      takeProfits: [
        { role: 'tp1', percent: '1.5', sizePercent: '50' },
        { role: 'tp2', percent: '3', sizePercent: '50' },
      ],
      stopLossPercent: null,
      maxLagSeconds: 300,
    });
    expect(body).not.toHaveProperty('strategyKey');
    const form = strategyToForm({
      takeProfits: [{ role: 'tp1', percent: '1.500000000000000000', sizePercent: '100.000000000000000000' }],
      stopLossPercent: '2.000000000000000000',
      timeFrame: '4h',
      maxLagSeconds: 60,
    } as Strategy);
    expect(form).toMatchObject({
      takeProfits: [{ percent: '1.5', sizePercent: '100' }],
      stopLossPercent: '2',
      timeFrame: '4h',
      maxLagSeconds: '60',
    });
  });

  it('writes a TradingView alert message the webhook accepts', () => {
    const strategy = { strategyKey: 'trend-btc', tradeCurrency: 'BTC', stableCoin: 'USDT' };
    expect(JSON.parse(alertMessage(strategy, 's3cret', 'exit'))).toEqual({
      strategyKey: 'trend-btc',
      secret: 's3cret',
      action: 'exit',
      symbol: 'BTC/USDT',
      timestamp: '{{timenow}}',
    });
    expect(JSON.parse(alertMessage(strategy, 's3cret', 'strategy')).action).toBe('{{strategy.order.action}}');
  });
});
