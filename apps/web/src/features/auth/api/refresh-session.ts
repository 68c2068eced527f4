import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord, nonEmptyString } from './auth-responses';

export const NO_REFRESH_TOKEN = 'No refresh token available';

/** POST /auth/refresh: the API client stores the new apiToken; the rotated refresh token is kept here. */
export async function refreshSession(): Promise<string> {
  const { refreshToken } = useSession.getState();
  if (!refreshToken) throw new Error(NO_REFRESH_TOKEN);
  const body = await api.post<unknown>('/auth/refresh', { refreshToken });
  const fields = isRecord(body) ? flattenResults(body) : {};
  const rotated = nonEmptyString(fields.refreshToken);
  if (rotated) useSession.getState().setRefreshToken(rotated);
  const token = useSession.getState().token;
  if (!token) throw new Error(NO_REFRESH_TOKEN);
  return token;
}
