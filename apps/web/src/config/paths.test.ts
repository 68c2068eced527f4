import { describe, expect, it } from 'vitest';
import { paths, safeRedirectTarget } from './paths';

/**
 * Issue 20: after login a user goes only where the link said within Kairos itself. A crafted
 * `?redirect=` that a browser or the URL parser would read as another site (or that React Router
 * cannot navigate to) sends them to the dashboard instead.
 */
describe('safeRedirectTarget', () => {
  it.each([
    '/trading',
    '/trades?bot=12&status=open',
    '/bot/42#settings',
    '/admin/alerts?page=2',
    '/trades/orders',
  ])('keeps a path of the app: %s', (target) => {
    expect(safeRedirectTarget(target)).toBe(target);
  });

  it.each([
    ['empty', ''],
    ['missing', null],
    ['relative', 'trading'],
    ['absolute URL', 'https://evil.example/'],
    ['scheme-relative', '//evil.example'],
    ['javascript:', 'javascript:alert(1)'],
    ['a tab after the slash', '/\t/evil.example'],
    ['an encoded tab', '/%09/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['an encoded newline', '/%0A/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a backslash after the slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a slash and a backslash', '/\\/evil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded second slash', '/%2F/evil.example'],
    ['a backslash further on', '/trading\\..\\\\evil.example'],
    ['a null byte', '/trading%00'],
    ['malformed encoding', '/trading%E0%A4%A'],
    ['the login page', '/login?redirect=/trading'],
    ['the register page', '/register'],
  ])('falls back to the dashboard for %s', (_name, target) => {
    expect(safeRedirectTarget(target)).toBe(paths.dashboard);
  });

  it('falls back to the given default', () => {
    expect(safeRedirectTarget('//evil.example', paths.trading)).toBe(paths.trading);
  });

  it('never lets through a value the URL parser resolves to another origin', () => {
    const base = 'https://kairos.example';
    const tricky = [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\\evil.example',
      '\\/evil.example',
      '/ /evil.example',
    ];
    for (const target of tricky) {
      const kept = safeRedirectTarget(target);
      expect(new URL(kept, base).origin, target).toBe(base);
    }
  });
});
