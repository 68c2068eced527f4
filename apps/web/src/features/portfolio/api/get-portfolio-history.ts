import { PORTFOLIO_PERIODS, portfolioHistorySchema } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';

export type PortfolioHistory = z.infer<typeof portfolioHistorySchema>;

/** Spec §7: /portfolio/history?period=1d|7d|30d|90d|1y|all (the contract's PORTFOLIO_PERIODS). */
export type PortfolioPeriod = (typeof PORTFOLIO_PERIODS)[number];
export const DEFAULT_PORTFOLIO_PERIOD: PortfolioPeriod = '30d';

export function isPortfolioPeriod(value: unknown): value is PortfolioPeriod {
  return (PORTFOLIO_PERIODS as readonly unknown[]).includes(value);
}

export async function getPortfolioHistory(period: PortfolioPeriod): Promise<PortfolioHistory> {
  return parseResults(
    portfolioHistorySchema,
    await api.get<unknown>('/portfolio/history', { params: { period } }),
  );
}

export const portfolioHistoryQueryOptions = (period: PortfolioPeriod) =>
  queryOptions({
    queryKey: ['portfolio', 'history', period],
    queryFn: () => getPortfolioHistory(period),
    placeholderData: keepPreviousData,
  });

export function usePortfolioHistory(period: PortfolioPeriod) {
  const signedIn = useSession((state) => state.token !== null);
  return useQuery({ ...portfolioHistoryQueryOptions(period), enabled: signedIn });
}
