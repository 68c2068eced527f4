import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { env } from '../config/env';
import {
  type LiveStatus,
  connectLiveEvents,
  createInvalidationBatcher,
  invalidationsFor,
} from './live-events';
import { useSession } from './session-store';

/** The state of the session's live stream, for the header's indicator. */
export const useLiveStatus = create<{ status: LiveStatus }>()(() => ({ status: 'off' }));

/** EventSource cannot send headers: the token goes in the query string (GET /api/events?token=). */
export function liveEventsUrl(token: string, lastEventId?: string): string {
  const search = new URLSearchParams({ token });
  if (lastEventId) search.set('lastEventId', lastEventId);
  return `${env.VITE_API_URL}/api/events?${search.toString()}`;
}

/**
 * Mounted once in the signed-in layout: one stream per session, opened with the token and closed
 * when it goes (logout, 401) or the layout unmounts. Events invalidate the matching queries.
 */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();
  const token = useSession((state) => state.token);

  useEffect(() => {
    if (!token || typeof EventSource !== 'function') return;
    const batcher = createInvalidationBatcher(queryClient);
    const close = connectLiveEvents({
      url: (lastEventId) => liveEventsUrl(token, lastEventId),
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
