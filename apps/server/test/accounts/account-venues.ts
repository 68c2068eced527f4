import { afterAll, beforeAll } from 'vitest';
import { BinanceTestServer, type BinanceTestAccountSpec } from '../fakes/binance-server';
import { BybitTestServer, type BybitTestAccountSpec } from '../fakes/bybit-server';
import { OkxTestServer, type OkxTestAccountSpec } from '../fakes/okx-server';
import { createTestApp, type TestApp } from '../support/app';
import { asUser } from '../support/trades-app';
import { registerUser, type Session } from '../support/users';

export type AccountVenues = {
  binance: BinanceTestServer;
  bybit: BybitTestServer;
  okx: OkxTestServer;
  t: TestApp;
  /** The user who connects the accounts. */
  alice: Session;
  /** The API as that user. */
  api(): ReturnType<typeof asUser>;
};

/**
 * Binance's, Bybit's and OKX's protocol servers holding these accounts, and an app that reaches them, for the
 * tests of one file: started before its first test, closed after its last (read the fields inside a test).
 */
export function onAccountVenues(accounts: {
  binance: BinanceTestAccountSpec[];
  bybit: BybitTestAccountSpec[];
  okx: OkxTestAccountSpec[];
}): AccountVenues {
  const venues = { api: () => asUser(venues.t.app, venues.alice) } as AccountVenues;
  beforeAll(async () => {
    venues.binance = await BinanceTestServer.start({ accounts: accounts.binance });
    venues.bybit = await BybitTestServer.start({ accounts: accounts.bybit });
    venues.okx = await OkxTestServer.start({ accounts: accounts.okx });
    venues.t = await createTestApp(
      {},
      {
        venueUrls: {
          ...venues.binance.venueUrls(),
          ...venues.bybit.venueUrls(),
          ...venues.okx.venueUrls(),
        },
      },
    );
    venues.alice = await registerUser(venues.t.app);
  });
  afterAll(async () => {
    await venues.t.close();
    await Promise.all([venues.binance.close(), venues.bybit.close(), venues.okx.close()]);
  });
  return venues;
}
