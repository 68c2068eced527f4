import { expect, it } from 'vitest';
import { InvalidOrderError, OrderNotFoundError, UnknownOutcomeError } from '../../src/exchange/errors';
import type { ExchangeGateway, StopOrderStatus, VenueStops } from '../../src/exchange/gateway';

/** What one venue's stop gateway tests give the shared contract below. */
export type StopContractVenue = {
  /** A gateway of the account holding a BTC/USDT long (`timeoutMs`: answers are waited for this long). */
  long(options?: { timeoutMs?: number }): ExchangeGateway;
  /** A gateway of an account holding nothing, ready to place a stop (its margin set where the venue wants it). */
  flat(): Promise<ExchangeGateway>;
  /** A client id written the venue's way (OKX takes letters and digits only). */
  cid(words: string): string;
  /** A client id the venue refuses. */
  badCid: string;
  /** How the venue's refusals read: a trigger already passed, nothing to close. */
  refusals: { triggered: RegExp; nothingToClose: RegExp };
  /** The venue refused the last placement as a duplicate client id, and rests only `cid` for the long. */
  expectDuplicateRefused(cid: string): void;
  /** The venue answers the next stop placement only after `ms` (it takes the stop at once). */
  delayNextPlacement(ms: number): void;
  /** What the venue itself holds for a stop settled by client id. */
  expectResting(cid: string, venueOrderId: string): void;
  /** Moves BTC/USDT's price (last and mark) at the venue. */
  setPrice(price: string): void;
  /** How a stop reads once its trigger came with nothing left to close (the venue's word for it). */
  orphaned: { status: StopOrderStatus; atVenue?: (cid: string) => void };
};

export function stopsOf(gateway: ExchangeGateway): VenueStops {
  expect(gateway.stops).not.toBeNull();
  return gateway.stops!;
}

/**
 * The cases every venue's resting stops pass the same way (issue 18): refusals are InvalidOrderError and leave
 * nothing; a client id outside the venue's rule never leaves; a client id used twice answers with the stop
 * already resting; a placement whose answer was lost is UnknownOutcomeError and found by its client id; a
 * stop whose position was closed meanwhile sends nothing at its trigger.
 */
export function stopGatewayContract(venue: () => StopContractVenue) {
  const stop = (clientOrderId: string, triggerPrice = '60000') => ({
    symbol: 'BTC/USDT',
    side: 'sell' as const,
    amount: '0.05',
    triggerPrice,
    clientOrderId,
  });

  it("refuses a stop its trigger price has already passed, and a reduce-only stop with nothing to close, in the venue's words", async () => {
    const v = venue();
    const alice = v.long();
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.05',
      clientOrderId: v.cid('long entry 2'),
    });
    const immediate = stopsOf(alice).placeStop(stop(v.cid('long stop through'), '65500'));
    await expect(immediate).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(immediate).rejects.toThrow(v.refusals.triggered);

    const flat = await v.flat();
    const refused = stopsOf(flat).placeStop(stop(v.cid('flat stop')));
    await expect(refused).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(refused).rejects.toThrow(v.refusals.nothingToClose);
    await expect(stopsOf(flat).fetchStopByClientId(v.cid('flat stop'), 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
  });

  it("refuses a client id outside the venue's rule before sending it", async () => {
    const v = venue();
    await expect(stopsOf(v.long()).placeStop(stop(v.badCid))).rejects.toBeInstanceOf(InvalidOrderError);
  });

  it('answers a second placement with the same client id with the stop already resting', async () => {
    const v = venue();
    const stops = stopsOf(v.long());
    const request = stop(v.cid('long stop dup'));
    const first = await stops.placeStop(request);
    const again = await stops.placeStop(request);
    expect(again).toEqual(first);
    v.expectDuplicateRefused(request.clientOrderId);
    await stops.cancelStop(first.venueOrderId, 'BTC/USDT');
  });

  it('turns a timeout after the venue took the stop into UnknownOutcomeError, settled by client id', async () => {
    const v = venue();
    const stops = stopsOf(v.long({ timeoutMs: 300 }));
    v.delayNextPlacement(1_000);
    const cid = v.cid('long stop lost');
    await expect(stops.placeStop(stop(cid, '61000'))).rejects.toBeInstanceOf(UnknownOutcomeError);
    const settled = await stops.fetchStopByClientId(cid, 'BTC/USDT');
    expect(settled).toMatchObject({ clientOrderId: cid, status: 'open', triggerPrice: '61000' });
    v.expectResting(cid, settled.venueOrderId);
    await stops.cancelStop(settled.venueOrderId, 'BTC/USDT');
  });

  it('sends nothing at the trigger of a stop whose position was closed meanwhile', async () => {
    const v = venue();
    const alice = v.long();
    const stops = stopsOf(alice);
    const cid = v.cid('long stop orphan');
    const placed = await stops.placeStop(stop(cid, '64000'));
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'market',
      amount: '0.05',
      reduceOnly: true,
      clientOrderId: v.cid('long exit 2'),
    });
    expect(await alice.fetchPositions()).toEqual([]);
    v.setPrice('63000');
    try {
      expect(await stops.fetchStop(placed.venueOrderId, 'BTC/USDT')).toMatchObject({
        status: v.orphaned.status,
        triggeredOrderId: null,
      });
      v.orphaned.atVenue?.(cid);
      expect(await alice.fetchPositions()).toEqual([]);
    } finally {
      v.setPrice('65000');
    }
  });
}
