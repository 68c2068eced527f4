import { describe, expect, it } from 'vitest';
import {
  CLIENT_ORDER_ID_PATTERN,
  clientOrderId,
  clientOrderIdFromHex,
  clientOrderIdToHex,
  deterministicId,
  retryClientOrderId,
  tradeClientOrderId,
} from './client-order-id';

describe('clientOrderId', () => {
  it('is deterministic: the same alert, bot and leg always give the same id', () => {
    const input = { alertId: 'a1b2c3', botId: 42, leg: 'open_long' };
    expect(clientOrderId(input)).toBe(clientOrderId({ ...input }));
    // Pinned so a change of algorithm (which would re-place orders after an upgrade) is noticed.
    expect(clientOrderId(input)).toMatchInlineSnapshot(`"k30AwJRRzccQeBo5Zmw7jLs"`);
  });

  it.each([
    { alertId: '1', botId: '1', leg: 'open_long' },
    { alertId: 'x'.repeat(500), botId: 'é🚀', leg: 'tp12' },
    { alertId: 0, botId: 0, leg: '' },
  ])('is 23 characters of [A-Za-z0-9] starting with k for $leg', (input) => {
    const id = clientOrderId(input);
    expect(id).toHaveLength(23);
    expect(id).toMatch(CLIENT_ORDER_ID_PATTERN);
    expect(id.startsWith('k')).toBe(true);
  });

  it.each([
    [
      { alertId: 'A1', botId: 'B1', leg: 'open_long' },
      { alertId: 'A1', botId: 'B1', leg: 'close_long' },
    ],
    [
      { alertId: 'A1', botId: 'B1', leg: 'open_long' },
      { alertId: 'A1', botId: 'B2', leg: 'open_long' },
    ],
    [
      { alertId: 'A1', botId: 'B1', leg: 'open_long' },
      { alertId: 'A2', botId: 'B1', leg: 'open_long' },
    ],
    // Shifting characters between fields must not collide.
    [
      { alertId: 'A1:', botId: 'B1', leg: 'x' },
      { alertId: 'A1', botId: ':B1', leg: 'x' },
    ],
  ])('differs between %j and %j', (a, b) => {
    expect(clientOrderId(a)).not.toBe(clientOrderId(b));
  });

  it('does not collide across many alerts, bots and legs', () => {
    const ids = new Set<string>();
    const legs = ['open_long', 'open_short', 'close_long', 'close_short', 'tp1', 'tp2', 'stop'];
    for (let alert = 0; alert < 100; alert++) {
      for (let bot = 0; bot < 30; bot++) {
        for (const leg of legs) ids.add(clientOrderId({ alertId: alert, botId: bot, leg }));
      }
    }
    expect(ids.size).toBe(100 * 30 * legs.length);
  });

  it('treats numeric and string ids alike, since both come from the same column', () => {
    expect(clientOrderId({ alertId: 7, botId: 9, leg: 'tp1' })).toBe(
      clientOrderId({ alertId: '7', botId: '9', leg: 'tp1' }),
    );
  });

  it('keeps order ids apart from other deterministic ids built from the same parts', () => {
    expect(deterministicId(['A1', 'B1', 'open_long'])).not.toBe(
      clientOrderId({ alertId: 'A1', botId: 'B1', leg: 'open_long' }),
    );
  });
});

describe('clientOrderIdToHex / clientOrderIdFromHex', () => {
  it('carries our ids as 32 hex digits and back, for every id form the engine makes', () => {
    const ids = [
      clientOrderId({ alertId: 'a', botId: 'b', leg: 'open_long' }),
      tradeClientOrderId('trade-1', 'tp1', 0),
      retryClientOrderId(tradeClientOrderId('trade-1', 'stop')),
      'k0000000000000000000000',
      'k' + '7n42DGM5Tflk9n8mt7Fhc7'.padStart(22, '0'),
    ];
    for (const id of ids) {
      const hex = clientOrderIdToHex(id);
      expect(hex).toMatch(/^[0-9a-f]{32}$/);
      expect(clientOrderIdFromHex(hex!)).toBe(id);
    }
  });

  it('leaves ids not of our form alone', () => {
    expect(clientOrderIdToHex('fm123x4')).toBeNull();
    expect(clientOrderIdToHex('kzzzzzzzzzzzzzzzzzzzzzz')).toBeNull(); // above 2^128
    expect(clientOrderIdFromHex('not-hex')).toBeNull();
    expect(clientOrderIdFromHex('6d1b345e-2821-40e2-ad83-4ecb18a06876')).toBeNull();
  });
});
