import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../exchange/scripted-market';
import { callApi } from '../security/world';
import { createPaperAccount } from '../support/engine';
import {
  FAULTS,
  STEPS,
  matrixTable,
  runCell,
  type CellResult,
  type MatrixVenue,
} from '../support/fault-matrix';
import { registerUser } from '../support/users';
import { startTradesApp } from '../trades/trades-app';
import { BinanceTestServer } from '../venues/binance-server';

/**
 * The lifecycle fault matrix (steps × faults) on the paper venue and on the Binance protocol server through
 * ccxt. `npm run bench -- --faults` runs this file and prints the table it writes.
 */
const results: CellResult[] = [];
const OUT = process.env.FAULT_MATRIX_OUT;

type Setup = { venue: MatrixVenue; strategyId: string; close(): Promise<void> };

async function strategyOf(venue: MatrixVenue) {
  const res = await callApi(venue.t, venue.owner, 'POST', '/api/strategies', {
    nickname: 'Matrix',
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  if (res.status !== 201) throw new Error(`strategy: ${res.status} ${res.body}`);
  return res.json().results.id as string;
}

async function paperVenue(): Promise<Setup> {
  const market = new ScriptedMarket(() => Date.now());
  const t = await startTradesApp({ paperVenueOptions: { market } });
  const owner = await registerUser(t.app);
  const venue: MatrixVenue = {
    name: 'paper',
    t,
    owner,
    async newAccount(marketType) {
      market.moveTo('65000');
      const account = await createPaperAccount(t.app, owner, { marketType });
      const row = (await t.app.services.repos.accounts.findById(account.id))!;
      return { accountId: account.id, gateway: await t.app.services.venues.gateways.forAccount(row) };
    },
    async movePrice(accountId, price) {
      market.moveTo(price);
      await t.app.services.venues.paperVenue.matchRestingOrders(accountId);
    },
  };
  return { venue, strategyId: await strategyOf(venue), close: () => t.close() };
}

async function binanceVenue(): Promise<Setup> {
  const server = await BinanceTestServer.start();
  const t = await startTradesApp({ venueUrlsOverride: server.urlsOverride() });
  const owner = await registerUser(t.app);
  let keys = 0;
  const venue: MatrixVenue = {
    name: 'binance (protocol server, ccxt)',
    t,
    owner,
    async newAccount(marketType) {
      server.setPrice('BTCUSDT', '65000.00');
      keys += 1;
      const apiKey = `matrixKey${String(keys).padStart(16, '0')}`;
      const secret = `matrix-secret-${keys}`;
      server.addAccount({ apiKey, secret, balances: { USDT: '10000' }, futuresWallet: '10000' });
      const res = await callApi(t, owner, 'POST', '/api/trading-accounts', {
        nickname: `Binance ${keys}`,
        exchange: 'binance',
        marketType,
        apiKey,
        apiSecret: secret,
      });
      if (res.status !== 201) throw new Error(`account: ${res.status} ${res.body}`);
      const row = (await t.app.services.repos.accounts.findById(res.json().results.id))!;
      return { accountId: row.id, gateway: await t.app.services.venues.gateways.forAccount(row) };
    },
    async movePrice(_accountId, price) {
      server.setPrice('BTCUSDT', price);
    },
  };
  return {
    venue,
    strategyId: await strategyOf(venue),
    async close() {
      await t.close();
      await server.close();
    },
  };
}

afterAll(() => {
  if (!OUT) return;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify({ results, table: matrixTable(results) }, null, 2));
});

for (const [name, start] of [
  ['paper', paperVenue],
  ['binance', binanceVenue],
] as const) {
  describe(`the lifecycle fault matrix on ${name}`, () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await start();
    });
    afterAll(() => setup?.close());

    for (const step of STEPS) {
      it(`${step.name}: every fault leaves positions covered, quantities equal and nothing placed twice`, async () => {
        const failures: string[] = [];
        for (const fault of FAULTS) {
          const result = await runCell(setup.venue, { strategyId: setup.strategyId }, step, fault);
          results.push(result);
          if (!result.ok) failures.push(`${fault}: ${result.problems.join('; ')}`);
        }
        expect(failures).toEqual([]);
        // A step no fault ever met tests nothing (a broken set-up would look like a pass).
        expect(results.some((r) => r.venue === setup.venue.name && r.step === step.name && r.exercised)).toBe(
          true,
        );
      });
    }
  });
}
