import { describe, expect, it } from 'vitest';
import { readTemplatedMessage, TEMPLATED_MESSAGES } from './templated-messages';

describe('messages with values', () => {
  it('reads back the values a message was built with', () => {
    const text = TEMPLATED_MESSAGES.FUTURES_PAIR_TAKEN.text({ bot: 'Trend "A" (x)', pair: 'BTC/USDT' });
    expect(readTemplatedMessage('FUTURES_PAIR_TAKEN', text)).toEqual({
      bot: 'Trend "A" (x)',
      pair: 'BTC/USDT',
    });
    const share = TEMPLATED_MESSAGES.OVER_ALLOCATED.text({ taken: '80.00', left: '20.00' });
    expect(readTemplatedMessage('OVER_ALLOCATED', share)).toEqual({ taken: '80.00', left: '20.00' });
  });

  it('reads nothing from another message or an unknown code', () => {
    expect(readTemplatedMessage('OVER_ALLOCATED', 'Bot not found')).toBeUndefined();
    expect(readTemplatedMessage('NOT_A_CODE', 'anything')).toBeUndefined();
  });
});
