import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { applyTheme, usePreferences } from '../lib/preferences-store';
import { useSession } from '../lib/session-store';

beforeAll(async () => {
  await initI18n();
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  useSession.getState().clear();
  window.localStorage.clear();
  window.sessionStorage.clear();
  usePreferences.setState({ theme: 'dark', language: 'en-US', currency: null, timezone: null });
  applyTheme('dark');
  await i18n.changeLanguage('en-US');
  window.history.replaceState(null, '', '/');
});
