import { StrictMode } from 'react';
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
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
