import { type LoaderFunctionArgs, redirect } from 'react-router';
import { loginPathWithRedirect, paths } from '../config/paths';
import { isAdmin, restoreSession, useSession } from '../lib/session-store';

/**
 * Route guards of spec §2, run as loaders so they decide before any screen renders.
 * Each first restores the stored session, then checks.
 */
export function requireAuth({ request }: LoaderFunctionArgs): null {
  restoreSession();
  if (!useSession.getState().isAuthenticated) {
    const url = new URL(request.url);
    throw redirect(loginPathWithRedirect(`${url.pathname}${url.search}`));
  }
  return null;
}

export function requireAdmin(args: LoaderFunctionArgs): null {
  requireAuth(args);
  if (!isAdmin(useSession.getState().user)) throw redirect(paths.dashboard);
  return null;
}

/** Login and Register are for visitors: a logged-in user goes to the Dashboard. */
export function guestOnly(): null {
  restoreSession();
  if (useSession.getState().isAuthenticated) throw redirect(paths.dashboard);
  return null;
}
