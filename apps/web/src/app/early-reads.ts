/**
 * The first screen's reads, asked for by index.html itself (issue 21). On a first visit the Dashboard's figures
 * were asked for only once the app's scripts had arrived and run, then a screen later its accounts and bots, then
 * its open positions: a chain of round trips behind some 240 KB of scripts. index.html now starts the signed-in
 * Dashboard's reads beside its scripts, and the API client takes each answer instead of asking again
 * (lib/early-reads.ts) — only for the same URL, with the same session, within a few seconds.
 *
 * vite-plugins.ts writes `firstScreenReads`'s own source into index.html, so it must stay self-contained: no
 * import, no name from outside its body. Its constants come in as `settings` (the build fills them from the
 * contract and the dashboard's defaults); early-reads.test.ts holds it to the URLs the screens ask for.
 */
export interface EarlyReadSettings {
  /** VITE_API_URL: the API's origin, empty when it is the page's. */
  api: string;
  /** The dashboard's sections of its main read (get-dashboard.ts), comma-separated. */
  dashboardInclude: string;
  /** How many bots the dashboard's "capital by bot" shows. */
  topN: number;
  /** The days of the dashboard's default range, today included. */
  days: number;
}

/**
 * The settings index.html is built with (vite.config.ts), for an API at `api`. Written out rather than imported:
 * Vite loads its config with Node, which cannot read the contract's TypeScript; early-reads.test.ts holds them to
 * the contract and the Dashboard.
 */
export function earlyReadSettings(api: string): EarlyReadSettings {
  return {
    api,
    // get-dashboard.ts's main read: the contract's DASHBOARD_SECTIONS but the two read on their own.
    dashboardInclude: 'equityCurve,dailyPnl,balanceByAccount,capitalByBot,metrics',
    topN: 8,
    days: 30,
  };
}

/**
 * The GET URLs the screen at `pathname` + `search` asks for first, for a signed-in user in `timeZone` (null: the
 * browser's) on `now`. Empty when the screen has none known here (then the screens ask as they always did).
 */
export function firstScreenReads(
  settings: EarlyReadSettings,
  pathname: string,
  search: string,
  timeZone: string | null,
  now: Date,
): string[] {
  if (pathname !== '/dashboard' || search !== '') return [];
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  let today = now.getFullYear() + '-' + two(now.getMonth() + 1) + '-' + two(now.getDate());
  if (timeZone) {
    try {
      // en-CA writes dates as YYYY-MM-DD (dashboard-filters.ts's todayIn).
      today = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(now);
    } catch {
      today = now.toISOString().slice(0, 10);
    }
  }
  const from = new Date(Date.parse(today + 'T00:00:00Z') - (settings.days - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const dashboard = settings.api + '/api/dashboard?';
  return [
    dashboard + query({ from, to: today, topN: String(settings.topN), include: settings.dashboardInclude }),
    dashboard + query({ include: 'equity' }),
    dashboard + query({ include: 'openPositions' }),
    settings.api + '/api/trading-accounts',
    settings.api + '/api/bots',
  ];
}
