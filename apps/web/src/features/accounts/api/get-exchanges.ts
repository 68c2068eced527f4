import type { exchangeListSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';

/** A venue Kairos can connect to: `paper` (simulated, first) or a ccxt exchange id. */
export type Venue = z.infer<typeof exchangeListSchema>[number];

export const PAPER_VENUE_ID = 'paper';

export async function getExchanges(): Promise<Venue[]> {
  const venues = unwrapResults<Venue[]>(await api.get<unknown>('/market/exchanges'));
  const list = Array.isArray(venues) ? venues : [];
  // Paper first, whatever order the server used: it is the one that works with no keys.
  return [...list].sort((a, b) => Number(b.id === PAPER_VENUE_ID) - Number(a.id === PAPER_VENUE_ID));
}

export const exchangesQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'exchanges'], queryFn: getExchanges, staleTime: 10 * 60_000 });

export function useExchanges() {
  return useQuery(exchangesQueryOptions());
}
