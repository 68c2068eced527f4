import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, field, isRow, listFrom } from '../../../lib/fields';

export interface DashboardParams {
  from?: string;
  to?: string;
  accountId?: string;
  botId?: string;
  topN?: number;
}

/** DESIGN §7: the sections of GET /api/dashboard. */
export interface Dashboard {
  equityCurve: Row[];
  dailyPnl: Row[];
  balanceByAccount: Row[];
  capitalByBot: Row[];
  metrics: Row;
}

export const DASHBOARD_SECTIONS = 'equityCurve,dailyPnl,balanceByAccount,capitalByBot,metrics';

export function toDashboard(results: unknown): Dashboard {
  const metrics = field(results, 'metrics');
  return {
    equityCurve: listFrom(field(results, 'equityCurve')),
    dailyPnl: listFrom(field(results, 'dailyPnl')),
    balanceByAccount: listFrom(field(results, 'balanceByAccount')),
    capitalByBot: listFrom(field(results, 'capitalByBot')),
    metrics: isRow(metrics) ? metrics : {},
  };
}

/** Nothing to show yet: no account balance, no bot capital and no closed trade. */
export function isDashboardEmpty(dashboard: Dashboard): boolean {
  const closedTrades = Number(field(dashboard.metrics, 'closedTrades') ?? 0);
  return (
    dashboard.balanceByAccount.length === 0 &&
    dashboard.capitalByBot.length === 0 &&
    dashboard.equityCurve.length === 0 &&
    !(closedTrades > 0)
  );
}

export async function getDashboard(params: DashboardParams = {}): Promise<Dashboard> {
  const body = await api.get<unknown>('/api/dashboard', {
    params: { ...params, include: DASHBOARD_SECTIONS },
  });
  return toDashboard(unwrapResults(body));
}

export const dashboardQueryOptions = (params: DashboardParams = {}) =>
  queryOptions({ queryKey: ['dashboard', params], queryFn: () => getDashboard(params) });

export function useDashboard(params: DashboardParams = {}) {
  return useQuery(dashboardQueryOptions(params));
}
