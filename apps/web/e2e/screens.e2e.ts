// Screenshots of the main screens in both themes, for looking at (apps/web/screenshots/screens/).
// Each page is also checked like any other: no console error, no failed call.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD,
  type Envelope,
  appUrl,
  authenticator,
  callApi,
  loginUser,
  registerUser,
  screenshot,
  setupBrowser,
} from './support';

const web = setupBrowser();

describe('screens', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`public screens in the ${theme} theme`, async () => {
      const page = await web.newPage({ theme });
      for (const [name, path, heading] of [
        ['home', '/', 'Your TradingView signals, traded by bots you own.'],
        ['login', '/login', 'Log in to Kairos'],
        ['register', '/register', 'Create your account'],
        ['forgot-password', '/forgot-password', 'Reset your password'],
      ] as const) {
        await page.goto(appUrl(path));
        await page.getByRole('heading', { name: heading }).waitFor();
        await screenshot(page, `screens/${name}-${theme}`, { fullPage: name === 'home' });
      }
    });

    it(`app screens of a new trader in the ${theme} theme`, async () => {
      const trader = await registerUser();
      const page = await web.newPage({ theme, session: trader });
      await page.goto(appUrl('/dashboard'), { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await screenshot(page, `screens/dashboard-${theme}`, { fullPage: true });
      for (const tab of ['profile', 'security', 'notifications', 'preferences'] as const) {
        await page.goto(appUrl(`/settings?tab=${tab}`), { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
        if (tab === 'security') {
          await page.getByRole('button', { name: 'Enable 2FA' }).click();
          // Enrolment asks for the password first (issue 20).
          await page.getByLabel('Your password', { exact: true }).fill(DEFAULT_PASSWORD);
          await page.getByRole('button', { name: 'Continue' }).click();
          await page.getByTestId('two-factor-qr').waitFor();
        }
        await screenshot(page, `screens/settings-${tab}-${theme}`, { fullPage: true });
      }
    });
  }

  it('the login 2FA step, a refused login at 390 px, and Settings in French at 1023 px', async () => {
    const trader = await registerUser();
    const enrolment = await callApi<Envelope<{ secret: string }>>('/auth/enable-2fa', {
      token: trader.apiToken,
      body: { email: trader.email, password: trader.password },
    });
    const phone = authenticator(enrolment.body.results.secret);
    const verified = await callApi('/auth/verify-2fa', {
      token: trader.apiToken,
      body: { email: trader.email, code: await phone.next() },
    });
    expect(verified.status).toBe(200);

    const page = await web.newPage({
      width: 390,
      height: 800,
      allowProblems: [/^HTTP 401 POST \/auth\/login$/],
    });
    await page.goto(appUrl('/login'));
    await page.getByLabel('Email').fill(trader.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    await screenshot(page, 'screens/login-refused-mobile');
    await page.getByLabel('Password', { exact: true }).fill(trader.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByLabel('2FA code').waitFor();
    await screenshot(page, 'screens/login-2fa-step-mobile');

    const french = await web.newPage({
      width: 1023,
      language: 'fr-FR',
      session: await loginUser(trader.email, trader.password, await phone.next()),
    });
    await french.goto(appUrl('/settings?tab=security'));
    await french.getByRole('button', { name: 'Désactiver la 2FA' }).click();
    await screenshot(french, 'screens/settings-security-fr-1023', { fullPage: true });
    await french.goto(appUrl('/settings?tab=preferences'));
    await french.getByRole('heading', { name: 'Paramètres', level: 1 }).waitFor();
    await screenshot(french, 'screens/settings-preferences-fr-1023', { fullPage: true });
  });
});
