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
  adminAudit: '/admin/audit',
} as const;

/** `/login?redirect=<full intended path with its query>` (spec §2 guard rules). */
export function loginPathWithRedirect(intended: string): string {
  return `${paths.login}?${new URLSearchParams({ redirect: intended }).toString()}`;
}

/**
 * Where to go after login: only same-origin paths, so a crafted link cannot send a
 * freshly logged-in user to another site.
 */
export function safeRedirectTarget(
  redirect: string | null | undefined,
  fallback: string = paths.dashboard,
): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) {
    return fallback;
  }
  if (/^\/(login|register)(?:[?#/]|$)/.test(redirect)) return fallback;
  return redirect;
}
