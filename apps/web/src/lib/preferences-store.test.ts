import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PREFERENCE_STORAGE_KEYS, applyTheme, readStoredTheme, usePreferences } from './preferences-store';

const root = () => document.documentElement;

describe('theme (DESIGN §9)', () => {
  it('is dark by default', () => {
    expect(readStoredTheme()).toBe('dark');
  });

  it('is applied as data-theme, with the dark class only when dark', () => {
    applyTheme('dark');
    expect(root().getAttribute('data-theme')).toBe('dark');
    expect(root().classList.contains('dark')).toBe(true);
    applyTheme('light');
    expect(root().getAttribute('data-theme')).toBe('light');
    expect(root().classList.contains('dark')).toBe(false);
  });

  it('is stored under "theme" and read back', () => {
    usePreferences.getState().setTheme('light');
    expect(window.localStorage.getItem(PREFERENCE_STORAGE_KEYS.theme)).toBe('light');
    expect(readStoredTheme()).toBe('light');
    expect(root().getAttribute('data-theme')).toBe('light');
  });

  it('is applied before the first paint by the inline script of index.html', () => {
    const html = readFileSync(resolve(import.meta.dirname, '../../index.html'), 'utf8');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const run = () => new Function(script ?? '')();

    root().removeAttribute('data-theme');
    root().classList.remove('dark');
    run();
    expect(root().getAttribute('data-theme')).toBe('dark');
    expect(root().classList.contains('dark')).toBe(true);

    window.localStorage.setItem('theme', 'light');
    window.localStorage.setItem('language', 'fr-FR');
    run();
    expect(root().getAttribute('data-theme')).toBe('light');
    expect(root().classList.contains('dark')).toBe(false);
    expect(root().lang).toBe('fr-FR');
  });
});
