import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../security/world';
import {
  FAULTS,
  STEPS,
  matrixTable,
  runCell,
  type CellResult,
  type MatrixVenue,
} from '../support/fault-matrix';
import { VENUE_COLUMNS, startVenue, type VenueKind, type VenueSetup } from '../support/venue-matrix';
import { syncSection, table } from '../support/venues-doc';

/**
 * The lifecycle fault matrix (steps × faults) on every venue column: the paper venue and the Binance, Bybit
 * and OKX protocol servers through ccxt, spot and futures (Binance's futures as binanceusdm; the reversal on
 * futures only). `npm run bench -- --faults` runs this file and prints the table it writes.
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

async function matrixVenue(kind: VenueKind): Promise<Setup> {
  const setup: VenueSetup = await startVenue(kind);
  return { venue: setup.venue, strategyId: await strategyOf(setup.venue), close: () => setup.close() };
}

afterAll(() => {
  if (!OUT) return;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify({ results, table: matrixTable(results) }, null, 2));
});

const KINDS: VenueKind[] = ['paper', 'binance', 'bybit', 'okx'];
const applies = (step: (typeof STEPS)[number], marketType: 'spot' | 'future') =>
  !step.marketType || step.marketType === marketType;

for (const kind of KINDS) {
  describe(`the lifecycle fault matrix on ${kind}`, () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await matrixVenue(kind);
    });
    afterAll(() => setup?.close());

    for (const column of VENUE_COLUMNS.filter((c) => c.kind === kind)) {
      for (const step of STEPS.filter((s) => applies(s, column.marketType))) {
        it(`${column.label}, ${step.name}: every fault leaves positions covered, quantities equal and nothing placed twice`, async () => {
          const failures: string[] = [];
          for (const fault of FAULTS) {
            const result = await runCell(setup.venue, { strategyId: setup.strategyId }, step, fault, {
              name: column.label,
              marketType: column.marketType,
              exchange: column.exchange,
            });
            results.push(result);
            if (!result.ok) failures.push(`${fault}: ${result.problems.join('; ')}`);
          }
          expect(failures).toEqual([]);
          // A step no fault ever met tests nothing (a broken set-up would look like a pass).
          expect(results.some((r) => r.venue === column.label && r.step === step.name && r.exercised)).toBe(
            true,
          );
        });
      }
    }
  });
}

describe('docs/venues.md', () => {
  it('prints the lifecycle fault matrix these results give (steps × venue columns)', async (ctx) => {
    const cells = VENUE_COLUMNS.reduce(
      (n, c) => n + STEPS.filter((s) => applies(s, c.marketType)).length * FAULTS.length,
      0,
    );
    // A run of part of the matrix (a -t filter) proves nothing about the rest of the table.
    if (results.length !== cells) ctx.skip();
    const held = (label: string, step: string) =>
      results.filter((r) => r.venue === label && r.step === step).every((r) => r.ok) ? '✓' : '✗';
    const rendered = table(
      ['step', ...VENUE_COLUMNS.map((c) => c.label)],
      STEPS.map((step) => [
        step.name,
        ...VENUE_COLUMNS.map((c) => (applies(step, c.marketType) ? held(c.label, step.name) : '—')),
      ]),
    );
    const section = await syncSection('fault-matrix', rendered);
    expect(section.actual).toBe(section.expected);
  });
});
