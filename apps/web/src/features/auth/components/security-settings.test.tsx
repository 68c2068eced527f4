import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const refusedCode = {
  status: 401,
  body: { success: false, error: 'INVALID_2FA_CODE', message: 'Invalid 2FA code' },
};

const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);

/** Enable 2FA, then the password it asks for first (issue 20). */
async function startEnrolment(password = 'my-password') {
  await userEvent.click(screen.getByRole('button', { name: 'Enable 2FA' }));
  await userEvent.type(await screen.findByLabelText('Your password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
}

async function openSecurity() {
  const app = renderApp('/settings?tab=security');
  // The first render loads the lazy layout and Settings chunks: slow on a busy machine.
  await screen.findByRole('heading', { name: 'Two-factor authentication' }, { timeout: 5000 });
  return app;
}

describe('Settings › Security (spec §2, §4, §8)', () => {
  it('asks for the password, shows the QR code and the key, turns 2FA on with a 6-digit code, then shows the ten recovery codes once', async () => {
    loginAs();
    const { requests } = mockFetch((request) => {
      if (request.path === '/auth/enable-2fa')
        return {
          body: {
            success: true,
            results: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', otpauthUrl: 'otpauth://totp/x', qrCode: QR },
          },
        };
      if (request.path === '/auth/verify-2fa')
        return {
          body: {
            success: true,
            results: {
              user: { id: 'u_1', email: 'ada@example.com', role: 'user', useTwoFa: true },
              apiToken: 'tok_new',
              refreshToken: 'ref_new',
              recoveryCodes: CODES,
            },
          },
        };
      return undefined;
    });
    await openSecurity();
    await userEvent.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Your password'), 'my-password');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByAltText(/QR code/)).getAttribute('src')).toBe(QR);
    expect(requests.find((r) => r.path === '/auth/enable-2fa')?.body).toEqual({
      email: 'ada@example.com',
      password: 'my-password',
    });
    expect(screen.getByTestId('two-factor-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    expect(useSession.getState()).toMatchObject({ isTwoFactorRequired: true });

    await userEvent.type(screen.getByLabelText('6-digit code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect(await screen.findByText('Please enter the 6-digit code')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('6-digit code'), '456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(CODES);
    expect(screen.getByRole('button', { name: 'Copy the codes' })).toBeTruthy();
    expect(requests.at(-1)).toMatchObject({ body: { email: 'ada@example.com', code: '123456' } });
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByRole('button', { name: 'Disable 2FA' })).toBeTruthy();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    expect(useSession.getState()).toMatchObject({
      token: 'tok_new',
      refreshToken: 'ref_new',
      isTwoFactorRequired: false,
      user: { useTwoFa: true },
    });
  });

  it("says '2FA verification failed' and why, and keeps the user logged in", async () => {
    loginAs();
    mockFetch((request) => {
      if (request.path === '/auth/enable-2fa')
        return { body: { success: true, results: { secret: 'JBSWY3DPEHPK3PXP', qrCode: QR } } };
      if (request.path === '/auth/verify-2fa') return refusedCode;
      return undefined;
    });
    const app = await openSecurity();
    await startEnrolment();
    await userEvent.type(await screen.findByLabelText('6-digit code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect(await screen.findByText('2FA verification failed')).toBeTruthy();
    expect(screen.getByText('Invalid 2FA code')).toBeTruthy();
    expect(useSession.getState().token).toBe('tok_test');
    expect(app.location()).toBe('/settings?tab=security');
  });

  it("says 'Failed to enable 2FA', or 'Missing user email' without one", async () => {
    loginAs({ email: '' });
    const { requests } = mockFetch();
    await openSecurity();
    await startEnrolment();
    expect(await screen.findByText('Failed to enable 2FA')).toBeTruthy();
    expect(screen.getByText('Missing user email')).toBeTruthy();
    expect(requests.filter((request) => request.path === '/auth/enable-2fa')).toHaveLength(0);
  });

  it("turns 2FA off with a code and the password, or says 'Failed to disable 2FA'", async () => {
    loginAs({ useTwoFa: true });
    let refuse = true;
    const { requests } = mockFetch((request) => {
      if (request.path !== '/auth/disable-2fa') return undefined;
      return refuse
        ? refusedCode
        : {
            body: {
              success: true,
              results: { user: { id: 'u_1', email: 'ada@example.com', useTwoFa: false } },
            },
          };
    });
    await openSecurity();
    await userEvent.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    await userEvent.type(screen.getByLabelText('6-digit code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off 2FA' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Your password'), 'my-password');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off 2FA' }));
    expect(await screen.findByText('Failed to disable 2FA')).toBeTruthy();
    expect(requests.at(-1)?.body).toEqual({
      email: 'ada@example.com',
      code: '111111',
      password: 'my-password',
    });
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Turn off 2FA' }));
    expect(await screen.findByRole('button', { name: 'Enable 2FA' })).toBeTruthy();
    expect(useSession.getState().user?.useTwoFa).toBe(false);
  });

  it("changes the password with the current one, or says 'Failed to change password'", async () => {
    loginAs();
    const { requests } = mockFetch((request) =>
      request.path === '/auth/change-pass'
        ? {
            status: 401,
            body: {
              success: false,
              error: 'INVALID_CREDENTIALS',
              message: 'Current password is incorrect',
              params: { variant: 'currentPassword' },
            },
          }
        : undefined,
    );
    await openSecurity();
    await userEvent.type(screen.getByLabelText('Current password'), 'old-password');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm the new password'), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords must match')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.clear(screen.getByLabelText('Confirm the new password'));
    await userEvent.type(screen.getByLabelText('Confirm the new password'), 'a-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Failed to change password')).toBeTruthy();
    expect(screen.getByText('Current password is incorrect')).toBeTruthy();
    expect(requests.at(-1)?.body).toEqual({
      email: 'ada@example.com',
      password: 'a-new-password',
      confirm_password: 'a-new-password',
      currentPassword: 'old-password',
    });
    expect(useSession.getState().token).toBe('tok_test');
  });
});

describe('forgot password', () => {
  it("asks for the mail, or says 'Failed to send reset email'", async () => {
    let fail = true;
    const { requests } = mockFetch((request) =>
      request.path === '/auth/forgot-pass'
        ? fail
          ? { status: 503 }
          : {
              body: {
                success: true,
                message: 'If an account exists for this email, a reset link is on its way.',
              },
            }
        : undefined,
    );
    renderApp('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send the reset link' }));
    expect(await screen.findByText('Failed to send reset email')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Send the reset link' }));
    expect(await screen.findByText('Check your inbox')).toBeTruthy();
    expect(requests.at(-1)).toMatchObject({ path: '/auth/forgot-pass', body: { email: 'ada@example.com' } });
  });

  it('says a reset link without its token is incomplete', async () => {
    mockFetch();
    renderApp('/reset-password?email=ada%40example.com');
    expect(await screen.findByRole('heading', { name: 'This reset link is incomplete' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });
});
