import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { endSession } from '../../../lib/session-store';

/** POST /auth/logout, then the session and all browser storage are cleared, whatever the server said. */
export async function logout(): Promise<void> {
  try {
    await api.post('/auth/logout');
  } catch {
    // An expired session or an offline server must not keep the user logged in here.
  } finally {
    endSession();
  }
}

export function useLogout({ onLoggedOut }: { onLoggedOut?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      queryClient.clear();
      onLoggedOut?.();
    },
  });
}
