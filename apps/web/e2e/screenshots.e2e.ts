// Issue 21's screenshot suite: every screen of app/routes.ts (public, trader and admin, each with what it shows)
// in both languages and both themes, at 1280 and 390 px, full page, into apps/web/screenshots/suite/ (gitignored)
// as <width>-<language>-<theme>/<screen>.png, for a person to look at. On demand, not in `npm test`:
//   E2E_SCREENSHOTS=1 npx vitest run -c e2e/vitest.config.ts screenshots      (from apps/web; a few minutes)
// A few screens only: E2E_SCREENSHOT_ROUTES=/dashboard,/trade (routes containing one of them), and
// `-t "1280 px in fr-FR, dark"` for one width, language and theme.
import { describe, it } from 'vitest';
import {
  PUBLIC_ROUTES,
  type TestUser,
  type TraderWorld,
  adminRoutes,
  adminUser,
  appUrl,
  arrangeTrader,
  openScreen,
  screenshot,
  setupBrowser,
  traderRoutes,
} from './support';

const web = setupBrowser();
const WIDTHS = [1280, 390] as const;
const LANGUAGES = ['en-US', 'fr-FR'] as const;
const THEMES = ['dark', 'light'] as const;
const ONLY = process.env.E2E_SCREENSHOT_ROUTES?.split(',').filter(Boolean);
const chosen = (routes: string[]) =>
  ONLY ? routes.filter((route) => ONLY.some((part) => route.includes(part))) : routes;

/** A route as a file name: "/bot/<id>" → "bot", "/settings?tab=security" → "settings-security". */
function fileName(route: string, world: TraderWorld): string {
  const name = route
    .replace(world.botId, '')
    .replace(world.tradeId, '')
    .replace(world.trader.user.id, '')
    .replace(/\?(tab=)?/, '-')
    .replace(/[^a-z0-9-]+/gi, '-')
    .replace(/^-+|-+$/g, '');
  return name || 'home';
}

describe.runIf(process.env.E2E_SCREENSHOTS)('screenshot suite (issue 21)', () => {
  let world: TraderWorld;
  let admin: TestUser;

  for (const width of WIDTHS)
    for (const language of LANGUAGES)
      for (const theme of THEMES) {
        it(`every screen at ${width} px in ${language}, ${theme}`, { timeout: 300_000 }, async () => {
          world ??= await arrangeTrader();
          admin ??= await adminUser();
          const folder = `suite/${width}-${language}-${theme}`;
          const shoot = async (session: TestUser | undefined, role: string, routes: string[]) => {
            const page = await web.newPage({
              session,
              width,
              height: width < 640 ? 844 : 800,
              language,
              theme,
            });
            for (const route of chosen(routes)) {
              await openScreen(page, appUrl(route));
              await screenshot(page, `${folder}/${role}-${fileName(route, world)}`, { fullPage: true });
            }
          };
          await shoot(undefined, 'visitor', PUBLIC_ROUTES);
          await shoot(world.trader, 'trader', traderRoutes(world));
          await shoot(admin, 'admin', adminRoutes(world.trader));
        });
      }
});
