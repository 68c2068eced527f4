/** Every route of spec §2 in one place, so links and guards never spell a path twice. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  components: '/components',
  dashboard: '/dashboard',
  trading: '/trading',
  /** The open trades list of the Trading screen. */
  openTrades: '/trading#open-trades',
  /** Every trade of the user, bot and manual, filtered and paged. */
  trades: '/trades',
  /** The user's orders, the Trades screen's second view: a pending order read as an order. */
  orders: '/trades/orders',
  bots: '/bots',
  portfolio: '/portfolio',
  settings: '/settings',
  /** The user's own plan, months billed and invoices. */
  billing: '/billing',
  accounts: '/accounts',
  bot: (id: string | number) => `/bot/${encodeURIComponent(String(id))}`,
  trade: (id: string | number) => `/trade/${encodeURIComponent(String(id))}`,
  adminAlerts: '/admin/alerts',
  adminBilling: '/admin/billing',
  adminUserBilling: (userId: string | number) => `/admin/billing/user/${encodeURIComponent(String(userId))}`,
  adminTradeControl: '/admin/trade-control',
  adminOutbox: '/admin/outbox',
  adminLimits: '/admin/limits',
  adminInvites: '/admin/invites',
  adminLedger: '/admin/ledger',
  adminAudit: '/admin/audit',
} as const;

/** `/login?redirect=<full intended path with its query>` (spec §2 guard rules). */
export function loginPathWithRedirect(intended: string): string {
  return `${paths.login}?${new URLSearchParams({ redirect: intended }).toString()}`;
}

/** Any base works: a relative path that stays on it stays on Kairos's own origin. */
const REDIRECT_BASE = 'https://kairos.invalid';

/**
 * Where to go after login: only paths of this app, so a crafted link cannot send a freshly logged-in
 * user to another site (issue 20). Browsers drop tabs and newlines from URLs and read `\` as `/`, so
 * `/\t/host`, `/\\host` and their percent-encoded forms are refused (once decoded, too) along with any
 * control character, and what is left must resolve, as the URL parser reads it, to this origin.
 */
export function safeRedirectTarget(
  redirect: string | null | undefined,
  fallback: string = paths.dashboard,
): string {
  if (!redirect || !redirect.startsWith('/')) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(redirect);
  } catch {
    return fallback; // malformed percent-encoding: React Router could not read it either
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  const unsafe = /[\u0000-\u001f\u007f\\]/;
  if (unsafe.test(redirect) || unsafe.test(decoded) || /^\/\//.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(redirect, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  if (/^\/(login|register)(?:\/|$)/.test(url.pathname)) return fallback;
  return redirect;
}
