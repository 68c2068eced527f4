import { describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  apiError,
  apiMessage,
  apiMessageTemplate,
  apiMessageTexts,
  nestedParams,
  readNestedParams,
  templateParams,
} from './api-messages';

describe('the API message catalog', () => {
  it('builds a message from its template and values', () => {
    expect(apiMessage('OVER_ALLOCATED', { taken: '80.00', left: '20.00' })).toBe(
      'This account is already 80.00% allocated to other bots: at most 20.00% is left',
    );
    expect(apiMessage('TAKE_PROFIT_NOT_PUSHABLE', { variant: 'waiting', previousName: 'TP1' })).toBe(
      'Waiting for TP1 to be filled first',
    );
    expect(apiMessage('NOT_FOUND', { variant: 'trade' })).toBe('Trade not found');
    expect(apiMessage('INTERNAL')).toBe('Internal server error');
    // Values are written as they are, `$&` and all.
    expect(apiMessage('FUTURES_PAIR_TAKEN', { bot: 'A $& B', pair: 'BTC/USDT' })).toContain('"A $& B"');
  });

  it('picks the plural form from count', () => {
    expect(apiMessage('ACCOUNT_HAS_BOTS', { count: 1 })).toBe(
      '1 bot trades on this account. Delete it with the account (bots=delete) or move it first.',
    );
    expect(apiMessage('ACCOUNT_HAS_BOTS', { count: 3 })).toBe(
      '3 bots trade on this account. Delete them with the account (bots=delete) or move them first.',
    );
  });

  it('gives the error arguments, with params only when there are some', () => {
    expect(apiError('STRATEGY_RETIRED')).toEqual(['STRATEGY_RETIRED', 'This strategy is retired']);
    expect(apiError('PERIOD_NOT_OVER', { period: '2026-10' })).toEqual([
      'PERIOD_NOT_OVER',
      '2026-10 is not over yet',
      { period: '2026-10' },
    ]);
  });

  it('knows no template for an unknown code or variant', () => {
    expect(apiMessageTemplate('NOT_A_CODE')).toBeUndefined();
    expect(apiMessageTemplate('NOT_FOUND', { variant: 'no-such-variant' })).toBeUndefined();
    expect(() => apiMessage('NOT_FOUND', { variant: 'no-such-variant' } as never)).toThrow();
  });

  it('folds a refusal into another and reads it back', () => {
    const inner = { message: 'Insufficient BTC: 1 needed, 0 available', code: 'INSUFFICIENT_FUNDS' };
    const params = {
      name: 'TP1',
      ...nestedParams('error', {
        ...inner,
        params: { variant: 'balance', asset: 'BTC', needed: '1', available: '0' },
      }),
    };
    expect(apiMessage('PUSH_FAILED', params)).toBe(
      'Failed to push TP1: Insufficient BTC: 1 needed, 0 available',
    );
    expect(readNestedParams(params, 'error')).toEqual({
      ...inner,
      params: { variant: 'balance', asset: 'BTC', needed: '1', available: '0' },
    });
    expect(readNestedParams({ name: 'TP1', error: 'rejected' }, 'error')).toBeUndefined();
  });

  it('has one translation key per sentence, and every template names its values plainly', () => {
    const texts = apiMessageTexts();
    const sentences = Object.values(API_MESSAGES).flatMap((entry) =>
      [entry.message, ...Object.values('variants' in entry ? entry.variants : {})].flatMap((t) =>
        typeof t === 'string' ? [t] : [t.one, t.other],
      ),
    );
    expect(Object.values(texts).sort()).toEqual(sentences.sort());
    for (const text of Object.values(texts)) {
      for (const name of templateParams(text)) expect(name).toMatch(/^[a-zA-Z]+$/);
    }
  });
});
