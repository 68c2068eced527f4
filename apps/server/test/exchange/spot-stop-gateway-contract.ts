import { expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { InsufficientFundsError, InvalidOrderError, OrderNotFoundError } from '../../src/exchange/errors';
import type { ExchangeGateway, StopOrderRequest } from '../../src/exchange/gateway';
import { stopsOf } from './stop-gateway-contract';

/** What one venue's spot stop-limit tests give the shared contract below. */
export type SpotStopContractVenue = {
  /**
   * A gateway of a new spot account holding 0.3 BTC and 1000 USDT, its stops the venue's spot stop-limits
   * (BTC/USDT at 65000).
   */
  account(): Promise<ExchangeGateway>;
  /** A client id written the venue's way (OKX takes letters and digits only). */
  cid(words: string): string;
  /** Moves BTC/USDT's last price at the venue (its book follows). */
  setPrice(price: string): void;
  /** How the venue's refusal of a stop its price is already through reads. */
  triggeredRefusal: RegExp;
};

/**
 * The cases every venue's spot stop-limits pass the same way (issue 18): the coins it sells are locked from its
 * placement and free again once it is cancelled; refusals are InvalidOrderError (a trigger already passed, no
 * limit price) or InsufficientFundsError (too little free base) and leave nothing; once the price reaches the
 * trigger the stop names the limit order the venue works, read through the gateway as any order, filled at its
 * limit or better — at once while the price is above the limit, later when the price gapped below it.
 */
export function spotStopLimitContract(venue: () => SpotStopContractVenue) {
  const stopLimit = (
    v: SpotStopContractVenue,
    words: string,
    over: Partial<StopOrderRequest> = {},
  ): StopOrderRequest => ({
    symbol: 'BTC/USDT',
    side: 'sell',
    amount: '0.1',
    triggerPrice: '64000',
    limitPrice: '63700',
    clientOrderId: v.cid(words),
    ...over,
  });
  const btc = async (gateway: ExchangeGateway) => (await gateway.fetchBalances())['BTC'];

  it('rests a sell stop-limit that locks the base it sells, reads it by id and client id, and cancels it back to free', async () => {
    const v = venue();
    const alice = await v.account();
    const stops = stopsOf(alice);
    const stop = await stops.placeStop(stopLimit(v, 'spot stop one'));
    expect(stop).toMatchObject({
      clientOrderId: v.cid('spot stop one'),
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      limitPrice: '63700',
      status: 'open',
      triggeredOrderId: null,
    });
    expect(await btc(alice)).toMatchObject({ free: '0.2', used: '0.1' });
    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toEqual(stop);
    expect(await stops.fetchStopByClientId(stop.clientOrderId!, 'BTC/USDT')).toEqual(stop);

    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
      venueOrderId: stop.venueOrderId,
      status: 'cancelled',
      triggeredOrderId: null,
    });
    expect(await btc(alice)).toMatchObject({ free: '0.3', used: '0' });
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'cancelled' });
  });

  it('refuses a stop its price is already through, one without a limit price, and one with too little free base', async () => {
    const v = venue();
    const alice = await v.account();
    const stops = stopsOf(alice);
    const through = stops.placeStop(stopLimit(v, 'spot stop through', { triggerPrice: '65500' }));
    await expect(through).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(through).rejects.toThrow(v.triggeredRefusal);
    await expect(
      stops.placeStop(stopLimit(v, 'spot stop no limit', { limitPrice: undefined })),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      stops.placeStop(stopLimit(v, 'spot stop too big', { amount: '0.5' })),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    for (const words of ['spot stop through', 'spot stop no limit', 'spot stop too big']) {
      await expect(stops.fetchStopByClientId(v.cid(words), 'BTC/USDT')).rejects.toBeInstanceOf(
        OrderNotFoundError,
      );
    }
    expect(await btc(alice)).toMatchObject({ free: '0.3', used: '0' });
  });

  it('triggered, names the limit order the venue works, filled at its limit or better through the gateway', async () => {
    const v = venue();
    const alice = await v.account();
    const stops = stopsOf(alice);
    const stop = await stops.placeStop(stopLimit(v, 'spot stop fill'));
    try {
      v.setPrice('63900');
      const triggered = await stops.fetchStop(stop.venueOrderId, 'BTC/USDT');
      expect(triggered).toMatchObject({ status: 'triggered', limitPrice: '63700' });
      const orderId = triggered.triggeredOrderId!;
      expect(orderId).toEqual(expect.any(String));
      const order = await alice.fetchOrder(orderId, 'BTC/USDT');
      expect(order).toMatchObject({
        venueOrderId: orderId,
        side: 'sell',
        type: 'limit',
        price: '63700',
        status: 'filled',
        amount: '0.1',
        filled: '0.1',
      });
      expect(new Decimal(order.average!).gte('63700')).toBe(true);
      const fills = await alice.fetchOrderFills(orderId, 'BTC/USDT', order.timestamp);
      expect(fills.reduce((total, f) => total.plus(f.amount), new Decimal(0)).toFixed()).toBe('0.1');
      expect(fills.every((f) => new Decimal(f.price).gte('63700'))).toBe(true);
      expect(await btc(alice)).toMatchObject({ free: '0.2', used: '0' });
      // Cancelling it now answers its state.
      expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'triggered' });
    } finally {
      v.setPrice('65000');
    }
  });

  it('triggered with the price gapped below its limit, its limit order rests and fills once the price is back', async () => {
    const v = venue();
    const alice = await v.account();
    const stops = stopsOf(alice);
    const stop = await stops.placeStop(stopLimit(v, 'spot stop gap'));
    try {
      v.setPrice('63000');
      const triggered = await stops.fetchStop(stop.venueOrderId, 'BTC/USDT');
      expect(triggered.status).toBe('triggered');
      const orderId = triggered.triggeredOrderId!;
      expect(await alice.fetchOrder(orderId, 'BTC/USDT')).toMatchObject({ status: 'open', filled: '0' });
      expect(await btc(alice)).toMatchObject({ used: '0.1' });
      // Cancelling the stop now answers its state and leaves its working limit order alone (on Binance and
      // Bybit they are one order: a cancel there would cancel the exit).
      expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'triggered' });
      expect(await alice.fetchOrder(orderId, 'BTC/USDT')).toMatchObject({ status: 'open' });

      v.setPrice('63800');
      const filled = await alice.fetchOrder(orderId, 'BTC/USDT');
      expect(filled).toMatchObject({ status: 'filled', filled: '0.1' });
      expect(new Decimal(filled.average!).gte('63700')).toBe(true);
      expect(await btc(alice)).toMatchObject({ free: '0.2', used: '0' });
    } finally {
      v.setPrice('65000');
    }
  });
}
