import {
  DEFAULT_PREFERENCES,
  type Preferences,
  type PreferencesPatch,
  mergePreferences,
} from '@kairos/contract';
import { create } from 'zustand';
import { browserStorage } from './browser-storage';

/** Spec §9: where the session lives in the browser. */
export const SESSION_STORAGE_KEYS = {
  token: 'auth_token',
  refreshToken: 'auth_refresh_token',
  user: 'auth_user',
} as const;

export type Role = 'user' | 'admin';

export interface SessionUser {
  id: string;
  email: string;
  /** The part of the email before the at-sign (spec §3). */
  username: string;
  role: Role;
  useTwoFa: boolean;
  /** The name the user chose in Settings, if any. */
  displayName?: string;
  accountStatus?: string;
  createdAt?: string;
  updatedAt?: string;
  /** The contract's defaults (DEFAULT_PREFERENCES) under whatever the backend sent. */
  preferences: Preferences;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Turns a backend user (or a stored one) into the client's user; null when it is not a user. */
export function toSessionUser(raw: unknown): SessionUser | null {
  if (!isRecord(raw)) return null;
  const email = typeof raw.email === 'string' ? raw.email : '';
  const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : '';
  if (!email && !id) return null;
  return {
    id,
    email,
    username: email.split('@')[0] ?? '',
    role: raw.isAdmin === true || raw.role === 'admin' ? 'admin' : 'user',
    useTwoFa: raw.useTwoFa === true,
    displayName: optionalString(raw.displayName)?.trim() || undefined,
    accountStatus: optionalString(raw.accountStatus),
    createdAt: optionalString(raw.createdAt),
    updatedAt: optionalString(raw.updatedAt),
    // Not validated here: the schemas are not on the first screen (the Settings screen reads them).
    preferences: mergePreferences(
      DEFAULT_PREFERENCES,
      isRecord(raw.preferences) ? (raw.preferences as PreferencesPatch) : {},
    ),
  };
}

export interface SessionState {
  user: SessionUser | null;
  token: string | null;
  refreshToken: string | null;
  isAuthenticated: boolean;
  isTwoFactorRequired: boolean;
  twoFactorSecret: string | null;
  setSession: (session: { user: unknown; token: string; refreshToken?: string | null }) => void;
  /** null drops the token (and so the authentication) but keeps the user. */
  setToken: (token: string | null) => void;
  setRefreshToken: (refreshToken: string | null) => void;
  setUser: (user: unknown) => void;
  requireTwoFactor: (secret?: string | null) => void;
  clearTwoFactor: () => void;
  clear: () => void;
}

function readStoredSession() {
  const token = browserStorage.get(SESSION_STORAGE_KEYS.token) || null;
  let user: SessionUser | null = null;
  const storedUser = browserStorage.get(SESSION_STORAGE_KEYS.user);
  if (storedUser) {
    try {
      user = toSessionUser(JSON.parse(storedUser));
    } catch {
      user = null;
    }
  }
  return {
    token,
    refreshToken: browserStorage.get(SESSION_STORAGE_KEYS.refreshToken) || null,
    user,
    isAuthenticated: token !== null,
  };
}

const signedOut = {
  user: null,
  token: null,
  refreshToken: null,
  isAuthenticated: false,
  isTwoFactorRequired: false,
  twoFactorSecret: null,
};

// Restored synchronously at creation: the stored token is there before any route guard runs.
export const useSession = create<SessionState>()((set) => ({
  ...signedOut,
  ...readStoredSession(),
  setSession: ({ user, token, refreshToken }) =>
    set((state) => ({
      user: toSessionUser(user) ?? state.user,
      token,
      refreshToken: refreshToken === undefined ? state.refreshToken : refreshToken,
      isAuthenticated: true,
      isTwoFactorRequired: false,
      twoFactorSecret: null,
    })),
  setToken: (token) => set({ token, isAuthenticated: token !== null }),
  setRefreshToken: (refreshToken) => set({ refreshToken }),
  setUser: (user) => set({ user: toSessionUser(user) }),
  requireTwoFactor: (secret) => set({ isTwoFactorRequired: true, twoFactorSecret: secret ?? null }),
  clearTwoFactor: () => set({ isTwoFactorRequired: false, twoFactorSecret: null }),
  clear: () => set(signedOut),
}));

// Write-through persistence under the three keys of spec §9.
useSession.subscribe((state, previous) => {
  if (state.token !== previous.token) browserStorage.set(SESSION_STORAGE_KEYS.token, state.token);
  if (state.refreshToken !== previous.refreshToken) {
    browserStorage.set(SESSION_STORAGE_KEYS.refreshToken, state.refreshToken);
  }
  if (state.user !== previous.user) {
    browserStorage.set(SESSION_STORAGE_KEYS.user, state.user ? JSON.stringify(state.user) : null);
  }
});

/**
 * Re-reads the stored session when memory has none (a token written by another tab, or
 * storage filled before the app booted). Guards call it before every access check.
 */
export function restoreSession(): void {
  if (useSession.getState().token) return;
  const stored = readStoredSession();
  if (stored.token) useSession.setState(stored);
}

/** Logout and 401: clears the token, the user and ALL browser storage (spec §4). */
export function endSession(): void {
  useSession.getState().clear();
  browserStorage.clearAll();
}

export function isAdmin(user: SessionUser | null | undefined): boolean {
  return user?.role === 'admin';
}
