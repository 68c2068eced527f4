import { DASHBOARD_SECTIONS, type Dashboard as DashboardResults } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrapResults } from '../../../lib/api-client';
import { usePreferences } from '../../../lib/preferences-store';
import { useSession } from '../../../lib/session-store';
import { parseDashboardFilters, toDashboardParams, todayIn } from '../utils/dashboard-filters';

/** Days are `YYYY-MM-DD` in the user's time zone; both ends inclusive. */
export interface DashboardParams {
  from?: string;
  to?: string;
  accountId?: string;
  botId?: string;
  topN?: number;
}

/** GET /api/dashboard with every section present (empty when the server left one out). */
export interface Dashboard {
  /** The amounts' currency; absent from an older server, then the display currency is assumed. */
  currency?: DashboardResults['currency'];
  metrics: NonNullable<DashboardResults['metrics']>;
  equityCurve: NonNullable<DashboardResults['equityCurve']>;
  dailyPnl: NonNullable<DashboardResults['dailyPnl']>;
  balanceByAccount: NonNullable<DashboardResults['balanceByAccount']>;
  capitalByBot: NonNullable<DashboardResults['capitalByBot']>;
  /** Open trades without a stop, or whose stop the venue refused: every account's, whatever the filters. */
  protection: DashboardResults['protection'];
}

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value.filter(isRow) as T[]) : []);
const count = (value: unknown): number => (typeof value === 'number' && value > 0 ? value : 0);

/**
 * Still read section by section rather than with the contract's dashboardSchema: src/i18n/i18n.test.tsx
 * serves a dashboard the schema refuses (numbers for decimals, no range or currency).
 */
export function toDashboard(results: unknown): Dashboard {
  const body: Partial<DashboardResults> = isRow(results) ? results : {};
  const equity = isRow(body.equityCurve) ? body.equityCurve : undefined;
  return {
    currency: isRow(body.currency) ? body.currency : undefined,
    metrics: isRow(body.metrics)
      ? body.metrics
      : { netPnl: '0', pnlPercent: null, winRate: null, closedTrades: 0 },
    equityCurve: {
      kind: equity?.kind === 'cumulativePnl' ? 'cumulativePnl' : 'equity',
      points: list(equity?.points),
    },
    dailyPnl: list(body.dailyPnl),
    balanceByAccount: list(body.balanceByAccount),
    capitalByBot: list(body.capitalByBot),
    protection: {
      unprotected: count(isRow(body.protection) ? body.protection.unprotected : undefined),
      venueStopRefused: count(isRow(body.protection) ? body.protection.venueStopRefused : undefined),
    },
  };
}

/** How many bots the "capital deployed by bot" chart shows. */
export const DASHBOARD_TOP_N = 8;

export async function getDashboard(params: DashboardParams = {}): Promise<Dashboard> {
  const body = await api.get<unknown>('/api/dashboard', {
    // DESIGN §7: every section in one call; the open positions are their own call, read every few seconds.
    params: {
      ...params,
      include: DASHBOARD_SECTIONS.filter((s) => s !== 'openPositions' && s !== 'equity').join(','),
    },
  });
  return toDashboard(unwrapResults(body));
}

/** Nothing to show yet: no account, no bot, no closed trade and no balance history. */
export function isDashboardEmpty(dashboard: Dashboard): boolean {
  return (
    dashboard.balanceByAccount.length === 0 &&
    dashboard.capitalByBot.length === 0 &&
    dashboard.equityCurve.points.length === 0 &&
    !(Number(dashboard.metrics.closedTrades) > 0)
  );
}

/**
 * Reads started by the route's loader, before the screen's code has arrived (issue 21: on a first visit the
 * figures were asked for only once some twenty chunks had loaded and run); the screen's query takes its own
 * within a few seconds, or asks anew.
 */
const early = new Map<string, { read: Promise<Dashboard>; at: number }>();
const EARLY_READ_MS = 5_000;
let screensOpen = 0;

/** The Dashboard's figures for `url`'s filters, asked for now unless a Dashboard is already on screen. */
export function startDashboardRead(url: string): void {
  if (screensOpen > 0 || !useSession.getState().token) return;
  const timeZone = usePreferences.getState().timezone ?? undefined;
  const filters = parseDashboardFilters(new URL(url).searchParams);
  const params = toDashboardParams(filters, todayIn(timeZone), DASHBOARD_TOP_N);
  const read = getDashboard(params);
  // Not taken (the screen asked for other filters, or never opened): its failure is nobody's.
  read.catch(() => undefined);
  early.set(JSON.stringify(params), { read, at: Date.now() });
}

function takeEarlyRead(params: DashboardParams): Promise<Dashboard> | undefined {
  const key = JSON.stringify(params);
  const started = early.get(key);
  early.delete(key);
  return started && Date.now() - started.at < EARLY_READ_MS ? started.read : undefined;
}

/** Live events invalidate every ['dashboard', …] entry (lib/live-events.ts). */
export const dashboardQueryOptions = (params: DashboardParams = {}) =>
  queryOptions({
    queryKey: ['dashboard', params],
    queryFn: () => takeEarlyRead(params) ?? getDashboard(params),
    // A new filter keeps the previous figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });

export function useDashboard(params: DashboardParams = {}) {
  // Logging out clears the cache while the screen is still up: it must not ask again without a token.
  const signedIn = useSession((state) => state.token !== null);
  // While a Dashboard is up its filters change from the screen, which asks at once: no early reads then.
  useEffect(() => {
    screensOpen += 1;
    return () => {
      screensOpen -= 1;
    };
  }, []);
  return useQuery({ ...dashboardQueryOptions(params), enabled: signedIn });
}

export type DashboardEquity = NonNullable<DashboardResults['equity']>;

/**
 * "Total equity (est.)" and "Available" (issue 21): their own call, since they are read from the venues now
 * (the other sections from the database); none for a bot, which has no balance of its own.
 */
export async function getDashboardEquity(params: { accountId?: string }) {
  const body = unwrapResults<Partial<DashboardResults>>(
    await api.get<unknown>('/api/dashboard', { params: { ...params, include: 'equity' } }),
  );
  return { currency: body.currency, equity: body.equity ?? null };
}

export function useDashboardEquity(params: { accountId?: string }, enabled: boolean) {
  const signedIn = useSession((state) => state.token !== null);
  return useQuery(
    queryOptions({
      // Under ['dashboard', …]: live events refresh it with the rest.
      queryKey: ['dashboard', 'equity', params],
      queryFn: () => getDashboardEquity(params),
      enabled: enabled && signedIn,
      placeholderData: keepPreviousData,
    }),
  );
}
