import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { watchPreferenceChanges } from '../lib/preferences-sync';
import { createQueryClient } from '../lib/query-client';
import { useSession } from '../lib/session-store';

/** Server state and session glue shared by every screen. */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  // When the session ends (logout, 401) no cached data of that user may stay in memory.
  useEffect(
    () =>
      useSession.subscribe((state, previous) => {
        if (previous.token && !state.token) client.clear();
      }),
    [client],
  );

  // Theme, language and currency changed while logged in are saved to the account. The watch runs
  // from the first render; the settings API (and its schemas) loads with the first change, which
  // keeps it out of the first-load JS.
  useEffect(
    () =>
      watchPreferenceChanges((change) => {
        void import('../features/settings/api/sync-preferences').then(({ savePreferenceChange }) =>
          savePreferenceChange(client, change),
        );
      }),
    [client],
  );

  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
