import { describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session-store';
import { mockFetch } from '../../../testing/fetch-mock';
import { REGISTER_MESSAGES, readRegisterResponse, register } from './register';

const input = { email: 'ada@example.com', password: 'correct horse', confirm_password: 'correct horse' };

describe('registration (spec §5, §7, §8)', () => {
  it('sends email, password and confirm_password', async () => {
    const { requests } = mockFetch(() => ({
      status: 201,
      body: { success: true, results: { id: 'u1', email: input.email } },
    }));
    await expect(register(input)).resolves.toEqual({ status: 'registered' });
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/auth/register', body: input });
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it('logs the user in when the server returns a session', async () => {
    mockFetch(() => ({
      status: 201,
      body: {
        success: true,
        results: { user: { id: 'u1', email: input.email }, apiToken: 'tok', refreshToken: 'ref' },
      },
    }));
    await expect(register(input)).resolves.toEqual({ status: 'authenticated' });
    expect(useSession.getState()).toMatchObject({ token: 'tok', user: { username: 'ada' } });
  });

  it("fails with 'Invalid response from server' on a body without success", () => {
    expect(() => readRegisterResponse(null)).toThrow(REGISTER_MESSAGES.invalidResponse);
    expect(() => readRegisterResponse({ results: {} })).toThrow('Invalid response from server');
  });

  it("fails with the server's message, or 'Registration failed'", () => {
    expect(() => readRegisterResponse({ success: false, message: 'Email already registered' })).toThrow(
      'Email already registered',
    );
    expect(() => readRegisterResponse({ success: false })).toThrow('Registration failed');
  });

  it('raises the message of an error response', async () => {
    mockFetch(() => ({
      status: 409,
      body: { success: false, error: 'CONFLICT', message: 'Email already registered' },
    }));
    await expect(register(input)).rejects.toThrow('Email already registered');
  });
});
