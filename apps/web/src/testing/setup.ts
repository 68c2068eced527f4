import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { applyTheme, usePreferences } from '../lib/preferences-store';
import { useSession } from '../lib/session-store';

// Lazy route chunks load through Vite's transform: on a busy 2-core CI machine the first screen of a
// file can take longer than Testing Library's 1 s default to appear.
configure({ asyncUtilTimeout: 5_000 });

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
