import type { SandboxKind, exchangeListSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';

/** A venue Kairos can connect to: `paper` (simulated, first) or a ccxt exchange id. */
export type Venue = z.infer<typeof exchangeListSchema>[number];

export const PAPER_VENUE_ID = 'paper';

/**
 * The venue's testnet or demo trading for one market type, if it has one. An answer without the per-market
 * detail (an older server) keeps the old reading: a venue with a sandbox has a testnet for every market.
 */
export function sandboxKindOf(
  venue: Venue | undefined,
  marketType: Venue['marketTypes'][number],
): SandboxKind | undefined {
  if (!venue) return undefined;
  if (!Array.isArray(venue.sandboxMarketTypes)) return venue.sandbox ? 'testnet' : undefined;
  if (!venue.sandboxMarketTypes.includes(marketType)) return undefined;
  return venue.sandboxKind?.[marketType] ?? 'testnet';
}

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
