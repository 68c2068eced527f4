import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { changeLanguage, initI18n } from './i18n';
import { applyTheme, usePreferences } from './lib/preferences-store';
import './index.css';

async function boot() {
  const { theme, language } = usePreferences.getState();
  applyTheme(theme);
  await initI18n();
  // English is bundled; another stored language is fetched before the first render, so no flash of English.
  await changeLanguage(language);
  const root = document.getElementById('root');
  if (!root) throw new Error('Missing #root element');
  // A transition: React renders the first screen in slices of a few ms and lets the browser answer a tap in between,
  // instead of one long task of several hundred ms on a phone (issue 21: the Dashboard's blocking time).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

void boot();
