import { dashboardSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { OPEN_TRADE_REFRESH_MS } from '../../trades/components/open-position-figures';

const openPositionsAnswer = z.object({ openPositions: dashboardSchema.shape.openPositions.default([]) });
export type OpenPosition = NonNullable<z.output<typeof dashboardSchema>['openPositions']>[number];

/** The account and bot filters of the dashboard (the open positions have no date range). */
export interface OpenPositionsParams {
  accountId?: string;
  botId?: string;
}

/** `GET /api/dashboard?include=openPositions`: the open trades marked at the last price (issue 21). */
export async function getOpenPositions(params: OpenPositionsParams = {}): Promise<OpenPosition[]> {
  const body = await api.get<unknown>('/api/dashboard', { params: { ...params, include: 'openPositions' } });
  const parsed = openPositionsAnswer.safeParse(unwrapResults(body));
  return parsed.success ? parsed.data.openPositions : [];
}

/** Under ['dashboard', …]: live events refresh it with the rest; read again every few seconds for the price. */
export const openPositionsQueryOptions = (params: OpenPositionsParams = {}) =>
  queryOptions({
    queryKey: ['dashboard', 'openPositions', params],
    queryFn: () => getOpenPositions(params),
    refetchInterval: OPEN_TRADE_REFRESH_MS,
  });

export function useOpenPositions(params: OpenPositionsParams = {}) {
  const signedIn = useSession((state) => state.token !== null);
  return useQuery({ ...openPositionsQueryOptions(params), enabled: signedIn });
}
