import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { capabilitiesFor, knownVenues } from '../../src/exchange/capabilities';
import type { VenueColumn } from './venue-matrix';

/**
 * docs/venues.md: its tables are written by the suites that prove them (the scenario suite, the lifecycle
 * fault matrix) between `<!-- name:start -->` and `<!-- name:end -->` markers. A suite run with
 * VENUES_DOC_WRITE=1 (`node scripts/venues-doc.mjs`) rewrites its sections; any other run checks them, so
 * the document cannot drift from the scenarios, the venues or their results.
 */
export const VENUES_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docs/venues.md',
);

export const WRITE_VENUES_DOC = process.env.VENUES_DOC_WRITE === '1';

function markers(name: string) {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** The text between a section's markers (trimmed), or null when the document has no such section. */
export function readSection(name: string): string | null {
  const doc = fs.readFileSync(VENUES_DOC, 'utf8');
  const { start, end } = markers(name);
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to === -1 || to < from) return null;
  return doc.slice(from + start.length, to).trim();
}

/** A section's text as prettier writes it in the document (`npm run lint` checks docs/ too). */
export async function formatted(content: string): Promise<string> {
  const options = (await prettier.resolveConfig(VENUES_DOC)) ?? {};
  return (await prettier.format(content, { ...options, parser: 'markdown' })).trim();
}

/** Replaces a section's text (the markers must exist). */
export function writeSection(name: string, content: string) {
  const doc = fs.readFileSync(VENUES_DOC, 'utf8');
  const { start, end } = markers(name);
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`docs/venues.md has no section ${name}`);
  fs.writeFileSync(VENUES_DOC, `${doc.slice(0, from + start.length)}\n\n${content}\n\n${doc.slice(to)}`);
}

/**
 * Rewrites the section under VENUES_DOC_WRITE=1; either way answers what the section should say and what
 * the document says now (the caller expects them equal).
 */
export async function syncSection(name: string, content: string) {
  const expected = await formatted(content);
  if (WRITE_VENUES_DOC) writeSection(name, expected);
  return { expected, actual: readSection(name) };
}

export type CellMark = 'pass' | 'fail' | 'n/a';
const SYMBOL: Record<CellMark, string> = { pass: '✓', fail: '✗', 'n/a': '—' };

/** A markdown table: `rows` of [label, ...marks] under `header`. */
export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : ':---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** Scenarios down, venue columns across. */
export function scenarioTable(
  scenarios: { id: string; title: string }[],
  columns: VenueColumn[],
  mark: (scenarioId: string, columnId: string) => CellMark,
): string {
  return table(
    ['scenario', ...columns.map((c) => c.label)],
    scenarios.map((s) => [s.title, ...columns.map((c) => SYMBOL[mark(s.id, c.id)])]),
  );
}

/** What each venue supports, from the capability table (exchange/capabilities.ts). */
export function supportTable(columns: VenueColumn[]): string {
  const tested = new Set(columns.map((c) => c.exchange));
  const yes = (v: boolean) => (v ? 'yes' : 'no');
  const sandboxOf = (id: string) => {
    const sandbox = capabilitiesFor(id).sandbox;
    const parts = (['spot', 'future'] as const)
      .filter((m) => sandbox[m])
      .map(
        (m) => `${m === 'spot' ? 'spot' : 'futures'}: ${sandbox[m] === 'demo' ? 'demo trading' : 'testnet'}`,
      );
    return parts.length > 0 ? parts.join(', ') : 'none';
  };
  const stopsOf = (id: string) => {
    const stops = capabilitiesFor(id).venueStops ?? {};
    const on = (['spot', 'future'] as const).filter((m) => stops[m]);
    if (on.length === 0) return 'not yet — watched by Kairos';
    const rest = (['spot', 'future'] as const).filter(
      (m) => !stops[m] && capabilitiesFor(id).marketTypes.includes(m),
    );
    const name = (m: 'spot' | 'future') => (m === 'spot' ? 'spot' : 'futures');
    return [
      ...on.map((m) =>
        m === 'spot' ? 'spot: stop-limit (last price)' : `${name(m)}: stop-market on the mark price`,
      ),
      ...rest.map((m) => `${name(m)}: watched by Kairos`),
    ].join('; ');
  };
  const rows = [
    [
      'Paper (Kairos)',
      '`paper`',
      'yes',
      'yes (USDT perpetuals)',
      'is itself simulated',
      'no',
      'futures: stop-market (its price path); spot: stop-limit (its price path)',
      'yes',
    ],
    ...knownVenues().map((c) => [
      c.displayName,
      `\`${c.id}\``,
      yes(c.marketTypes.includes('spot')),
      c.marketTypes.includes('future') ? 'yes (USDT perpetuals)' : 'no',
      sandboxOf(c.id),
      yes(c.requiresPassword),
      stopsOf(c.id),
      tested.has(c.id) ? 'yes' : c.proven ? 'no' : 'no — not offered (no protocol server yet)',
    ]),
  ];
  return table(
    [
      'venue',
      'ccxt id',
      'spot',
      'futures',
      'sandbox / demo',
      'passphrase',
      'venue-side stop orders',
      'scenario suite',
    ],
    rows,
  );
}
