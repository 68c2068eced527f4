import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { renderApp, renderWithProviders } from '../../../testing/render';
import { LoginForm } from './login-form';

const user = { id: 'u1', email: 'ada@example.com', role: 'user', useTwoFa: true };

/** Logs in as a 2FA user up to the code step; the server takes any code. */
async function reachCodeStep() {
  const mock = mockFetch((request) =>
    (request.body as { code?: string }).code
      ? { body: { success: true, results: { user, apiToken: 'tok', refreshToken: 'ref' } } }
      : { body: { success: true, results: { requires2FA: true }, message: '2FA code required' } },
  );
  const onSuccess = vi.fn();
  renderWithProviders(<LoginForm onSuccess={onSuccess} />);
  await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
  return { ...mock, onSuccess };
}

describe('LoginForm', () => {
  it('shows the validation messages of spec §5', async () => {
    mockFetch();
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
  });

  it('shows them in French too', async () => {
    mockFetch();
    await changeLanguage('fr-FR');
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'ada@');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Veuillez saisir une adresse e-mail valide')).toBeTruthy();
    expect(screen.getByText('Ce champ est obligatoire')).toBeTruthy();
  });

  it('takes a recovery code instead of the 2FA code ("Use a recovery code")', async () => {
    const { requests, onSuccess } = await reachCodeStep();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    expect(screen.getByText(/one of the ten recovery codes/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use the code from my authenticator app' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(requests[1]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      code: 'abcde-fghjk',
    });
  });

  it('asks for the 2FA code, then sends it trimmed and logs in', async () => {
    const { requests, onSuccess } = await reachCodeStep();

    expect(await screen.findByText('2FA code required')).toBeTruthy();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(useSession.getState().isTwoFactorRequired).toBe(true);
    expect(requests[0]?.body).toEqual({ email: 'ada@example.com', password: 'correct horse' });

    await userEvent.type(screen.getByLabelText('2FA code'), ' 123456 ');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(requests[1]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      code: '123456',
    });
    expect(useSession.getState()).toMatchObject({
      isAuthenticated: true,
      isTwoFactorRequired: false,
      token: 'tok',
    });
  });

  it('refuses a 2FA code that is not 6 digits', async () => {
    mockFetch(() => ({ body: { success: true, results: { requires2FA: true } } }));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await userEvent.type(await screen.findByLabelText('2FA code'), '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(await screen.findByText('Please enter the 6-digit code')).toBeTruthy();
  });

  it("shows 'Login failed: malformed response' for an unreadable answer", async () => {
    mockFetch(() => ({ body: { success: true, results: { nothing: true } } }));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed: malformed response');
  });
});

describe('Login screen', () => {
  it('lands on the redirect target after login', async () => {
    mockFetch((request) =>
      request.path === '/auth/login'
        ? {
            body: {
              success: true,
              results: { user: { ...user, useTwoFa: false }, apiToken: 'tok', refreshToken: 'ref' },
            },
          }
        : undefined,
    );
    const app = renderApp('/bots?page=2');
    await waitFor(() => expect(app.location()).toBe('/login?redirect=%2Fbots%3Fpage%3D2'));
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(app.location()).toBe('/bots?page=2'));
    expect(await screen.findByRole('heading', { name: 'Bots', level: 1 })).toBeTruthy();
  });

  it('goes to the Dashboard when the redirect points elsewhere', async () => {
    mockFetch((request) =>
      request.path === '/auth/login'
        ? { body: { success: true, user: { ...user, useTwoFa: false }, apiToken: 'tok' } }
        : undefined,
    );
    const app = renderApp('/login?redirect=https%3A%2F%2Fevil.example');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });
});
