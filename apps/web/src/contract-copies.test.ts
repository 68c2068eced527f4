import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  ALERT_STATUSES,
  CURRENCY_CODE_PATTERN,
  DASHBOARD_SECTIONS,
  LANGUAGES,
  LIVE_ORDER_STATES,
  ORDER_STATES,
  PORTFOLIO_PERIODS,
  STRATEGY_KEY_PATTERN,
  TRADE_STATUSES,
  strategyStatusSchema,
  timeFrameSchema,
} from '@kairos/contract';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The contract is the only source of the API's lists, limits, rules and defaults (issue 15): the web
 * imports them. This test fails when a web source file writes one of them out again.
 */

/** Lists the web must import: an array (or a comma-separated string) holding all of one is a copy. */
const LISTS: Record<string, readonly string[]> = {
  ORDER_STATES,
  LIVE_ORDER_STATES,
  ALERT_STATUSES,
  TRADE_STATUSES,
  'strategyStatusSchema.options': strategyStatusSchema.options,
  'timeFrameSchema.options': timeFrameSchema.options,
  LANGUAGES,
  DASHBOARD_SECTIONS,
  PORTFOLIO_PERIODS,
};
/** Names only the contract declares. */
const CONTRACT_NAMES = new Set([
  'MAX_TAKE_PROFITS',
  'MAX_LEVERAGE_PERCENT',
  'DEFAULT_PREFERENCES',
  'STRATEGY_KEY_PATTERN',
  'CURRENCY_CODE_PATTERN',
  'ORDER_STATES',
  'LIVE_ORDER_STATES',
  'ALERT_STATUSES',
  'TRADE_STATUSES',
]);
/** The contract's patterns, without their anchors: a regex or string containing one is a copy. */
const PATTERNS = [STRATEGY_KEY_PATTERN, CURRENCY_CODE_PATTERN].map((pattern) =>
  pattern.source.replace(/^\^|\$$/g, ''),
);
/** The preferences object: one with all these keys is a copy of DEFAULT_PREFERENCES. */
const PREFERENCE_KEYS = ['theme', 'language', 'currency', 'timezone', 'notifications'];

function stringsOf(node: ts.ArrayLiteralExpression): string[] {
  return node.elements.filter(ts.isStringLiteralLike).map((element) => element.text);
}

function holdsList(values: readonly string[]): string | undefined {
  return Object.entries(LISTS).find(([, list]) => list.every((value) => values.includes(value)))?.[0];
}

/** Every copy in one file's source, as "line: what". */
export function contractCopies(fileName: string, source: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);

  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) {
      const list = holdsList(stringsOf(node));
      if (list) report(node, `a copy of the contract's ${list}`);
    } else if (ts.isStringLiteralLike(node) && node.text.includes(',')) {
      const list = holdsList(node.text.split(',').map((part) => part.trim()));
      if (list) report(node, `a copy of the contract's ${list}`);
    }
    if ((ts.isRegularExpressionLiteral(node) || ts.isStringLiteralLike(node)) && node.text) {
      const pattern = PATTERNS.find((source) => node.text.includes(source));
      if (pattern) report(node, `a copy of the contract's pattern ${pattern}`);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && CONTRACT_NAMES.has(node.name.text)) {
      report(node, `${node.name.text} is declared here; import it from @kairos/contract`);
    }
    if (ts.isNumericLiteral(node) && node.text === '100.000001') {
      report(node, 'take-profit sizes compared as floats; use takeProfitSizesFit (exact decimals)');
    }
    if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.map((property) => property.name?.getText(file));
      if (PREFERENCE_KEYS.every((key) => keys.includes(key))) {
        report(node, 'a preferences object; use DEFAULT_PREFERENCES / mergePreferences');
      }
    }
    if (
      ts.isAsExpression(node) &&
      ts.isAsExpression(node.expression) &&
      node.expression.type.kind === ts.SyntaxKind.UnknownKeyword &&
      /[\\/]api[\\/]/.test(fileName)
    ) {
      report(node, 'an API answer cast with `as unknown as`; parse it with the contract schema');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const SRC = import.meta.dirname;

/**
 * Copies left in files another change owns, each with why; remove an entry once its file imports the
 * contract's value instead.
 */
const KNOWN_COPIES: Array<{ file: string; copy: string; why: string }> = [
  {
    file: 'i18n/index.ts',
    copy: "a copy of the contract's LANGUAGES",
    why: '`supportedLngs` should be SUPPORTED_LANGUAGES (lib/preferences-store); i18n/ is being reworked',
  },
];
const known = (file: string, copy: string) =>
  KNOWN_COPIES.some((entry) => entry.file === file && copy.endsWith(entry.copy));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the web keeps no copy of the contract', () => {
  it('finds each kind of copy', () => {
    const copies = contractCopies(
      'features/x/api/get-x.ts',
      [
        "const states = ['queued', 'in_progress', 'succeeded', 'failed', 'dead'] as const;",
        "const live = ['unknown', 'open', 'submitted', 'partially_filled'];",
        "const include = 'equityCurve,dailyPnl,balanceByAccount,capitalByBot,metrics,openPositions,equity';",
        'export const MAX_TAKE_PROFITS = 10;',
        'const key = /^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/;',
        "const code = new RegExp('^[A-Za-z0-9]{2,12}$');",
        'const over = total > 100.000001;',
        "const prefs = { theme: 'light', language: 'en-US', currency: 'USD', timezone: 'UTC', notifications: {} };",
        'const rows = results as unknown as Row[];',
      ].join('\n'),
    );
    expect(copies).toEqual([
      "1: a copy of the contract's ALERT_STATUSES",
      "2: a copy of the contract's LIVE_ORDER_STATES",
      "3: a copy of the contract's DASHBOARD_SECTIONS",
      '4: MAX_TAKE_PROFITS is declared here; import it from @kairos/contract',
      "5: a copy of the contract's pattern [A-Za-z0-9][A-Za-z0-9_-]{2,63}",
      "6: a copy of the contract's pattern [A-Za-z0-9]{2,12}",
      '7: take-profit sizes compared as floats; use takeProfitSizesFit (exact decimals)',
      '8: a preferences object; use DEFAULT_PREFERENCES / mergePreferences',
      '9: an API answer cast with `as unknown as`; parse it with the contract schema',
    ]);
  });

  it('in apps/web/src', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const copies = files.flatMap((path) => {
      const file = relative(SRC, path).split('\\').join('/');
      return contractCopies(path, readFileSync(path, 'utf8'))
        .filter((copy) => !known(file, copy))
        .map((copy) => `${file}:${copy}`);
    });
    expect(copies).toEqual([]);
  });
});
