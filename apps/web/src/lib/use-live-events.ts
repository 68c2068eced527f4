import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { streamTicketResponse } from '@kairos/contract';
import { create } from 'zustand';
import { env } from '../config/env';
import { api, parseResults } from './api-client';
import {
  type LiveStatus,
  connectLiveEvents,
  createInvalidationBatcher,
  invalidationsFor,
} from './live-events';
import { useSession } from './session-store';

/** The state of the session's live stream, for the header's indicator. */
export const useLiveStatus = create<{ status: LiveStatus }>()(() => ({ status: 'off' }));

/**
 * EventSource cannot send headers, and the access token must not travel in a URL (issue 20): each
 * stream opens with a single-use ticket of 30 seconds (GET /api/events?ticket=).
 */
export function liveEventsUrl(ticket: string, lastEventId?: string): string {
  const search = new URLSearchParams({ ticket });
  if (lastEventId) search.set('lastEventId', lastEventId);
  return `${env.VITE_API_URL}/api/events?${search.toString()}`;
}

/** POST /api/events/ticket: what opens the next stream. */
export async function fetchStreamTicket(): Promise<string> {
  const body = await api.post<unknown>('/api/events/ticket');
  return parseResults(streamTicketResponse.shape.results, body).ticket;
}

/**
 * Mounted once in the signed-in layout: one stream per session, each opening with a new ticket, and
 * closed when the session goes (logout, 401) or the layout unmounts. Events invalidate the matching
 * queries. The server ends the stream when the session is revoked; the ticket asked for next then
 * answers 401, which ends the session here too.
 */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();
  const token = useSession((state) => state.token);

  useEffect(() => {
    if (!token || typeof EventSource !== 'function') return;
    const batcher = createInvalidationBatcher(queryClient);
    const close = connectLiveEvents({
      url: async (lastEventId) => liveEventsUrl(await fetchStreamTicket(), lastEventId),
      onEvent: (type) => batcher.add(invalidationsFor(type)),
      onResync: () => batcher.invalidateAll(),
      onStatus: (status) => useLiveStatus.setState({ status }),
    });
    return () => {
      close();
      batcher.dispose();
    };
  }, [token, queryClient]);
}
