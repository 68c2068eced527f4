// Issue 4 in a browser against the real server: register, log in, 2FA on and off, passwords.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD,
  appUrl,
  authenticator,
  linkIn,
  logOutWithMenu,
  registerUser,
  setupBrowser,
  signInWithForm,
  uniqueEmail,
  waitForMail,
} from './support';

const web = setupBrowser();

describe('authentication', () => {
  it('registers, logs in, turns 2FA on, logs in with a code, turns 2FA off and changes the password', async () => {
    const email = uniqueEmail('journey');
    const newPassword = 'a-new-Kairos-pass-9902';
    const page = await web.newPage({
      // A wrong 2FA code and the old password, refused on purpose below. Turning 2FA on ends every other
      // sign-in, the page's previous one included: a Sessions read sent with it just before the new session's
      // token arrives is refused (known race; the panel reads again with the new token).
      allowProblems: [/^HTTP 401 POST \/auth\/login$/, /^HTTP 401 GET \/auth\/sessions$/],
    });

    // Register: the answer is the same for a taken address (issue 20), so the new user then logs in.
    await page.goto(appUrl('/register'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    // Log in, then enable 2FA in Settings › Security (the password first).
    await signInWithForm(page, { email, password: DEFAULT_PASSWORD });
    await page.goto(appUrl('/settings?tab=security'));
    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    await page.getByLabel('Your password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    const qr = page.getByTestId('two-factor-qr');
    await qr.waitFor();
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const phone = authenticator(secret);
    await page.getByLabel('6-digit code').fill(await phone.next());
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    await page.getByText('Two-factor authentication is on. You will need a code at every login.').waitFor();
    // The ten recovery codes, shown once.
    expect(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Disable 2FA' }).waitFor();

    // Log out; logging in now asks for the code, refuses a wrong one and takes a right one.
    await logOutWithMenu(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByText('2FA code required').waitFor();
    await page.getByLabel('2FA code').fill(phone.wrongCode());
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.getByRole('alert').getByText('Invalid 2FA code').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('2FA code').fill(await phone.next());
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');

    // Disable 2FA with a code.
    await page.goto(appUrl('/settings?tab=security'));
    await page.getByRole('button', { name: 'Disable 2FA' }).click();
    await page.getByLabel('6-digit code').fill(await phone.next());
    await page.getByLabel('Your password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Turn off 2FA' }).click();
    await page.getByText('Two-factor authentication is off.').waitFor();
    await page.getByRole('button', { name: 'Enable 2FA' }).waitFor();

    // Change the password with the current one.
    await page.getByLabel('Current password').fill(DEFAULT_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed.').waitFor();

    // Log out: the old password is refused, the new one works, and no code is asked any more.
    await logOutWithMenu(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByText('Invalid email or password').waitFor();
    await signInWithForm(page, { email, password: newPassword });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });

  it('resets a forgotten password with the link from the mail', async () => {
    const trader = await registerUser();
    const newPassword = 'reset-Kairos-pass-5521';
    const page = await web.newPage({ allowProblems: [/^HTTP 401 POST \/auth\/change-pass$/] });
    await page.goto(appUrl('/login'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const asked = Date.now();
    await page.getByLabel('Email').fill(trader.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText('Check your inbox').waitFor();

    const link = linkIn(await waitForMail(trader.email, { since: asked, subject: /reset/i }));
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('email')).toBe(trader.email);
    await page.goto(link.href);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm the new password').fill('not the same password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Passwords must match').waitFor();
    await page.getByLabel('Confirm the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Your password has been changed. Log in with the new one.').waitFor();
    await signInWithForm(page, { email: trader.email, password: newPassword });

    // The link works once.
    const again = await web.newPage({ allowProblems: [/^HTTP 401 POST \/auth\/change-pass$/] });
    await again.goto(link.href);
    await again.getByLabel('New password', { exact: true }).fill('yet-another-Pass-1234');
    await again.getByLabel('Confirm the new password').fill('yet-another-Pass-1234');
    await again.getByRole('button', { name: 'Set the new password' }).click();
    await again.getByText('Failed to change password').waitFor();
    await again.getByText('This reset link is invalid or has expired').waitFor();
  });

  it('says why a login is refused, in English and in French', async () => {
    const trader = await registerUser();
    const page = await web.newPage({ allowProblems: [/^HTTP 401 POST \/auth\/login$/] });
    await page.goto(appUrl('/login'));
    await page.getByLabel('Email').fill(trader.email);
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    await page.getByTestId('language-switcher').selectOption('fr-FR');
    await page.getByRole('alert').getByText('E-mail ou mot de passe incorrect').waitFor();
  });
});
