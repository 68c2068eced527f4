import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, role: 'all', databaseUrl: undefined, logLevel: 'info' });
    expect(c.dataDir).toMatch(/\.data$/);
  });

  it('names every bad variable in one line', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'abc', KAIROS_ROLE: 'boss', DATABASE_URL: 'mysql://x' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT');
    expect(message).toContain('"abc"');
    expect(message).toContain('KAIROS_ROLE');
    expect(message).toContain('DATABASE_URL');
  });

  it('keeps registration open unless KAIROS_REGISTRATION=invite closes it (issue 20)', () => {
    expect(loadConfig({}).registration).toBe('open');
    expect(loadConfig({ KAIROS_REGISTRATION: 'invite' }).registration).toBe('invite');
    expect(() => loadConfig({ KAIROS_REGISTRATION: 'closed' })).toThrow(
      /KAIROS_REGISTRATION \(expected open or invite/,
    );
  });

  it('treats empty optional variables as unset and parses lists', () => {
    const c = loadConfig({
      DATABASE_URL: '',
      SMTP_URL: ' ',
      KAIROS_CORS_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
    expect(c.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('refuses real mail without a public URL for its links, and trusts no proxy by default', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example:25' })).toThrow(/KAIROS_PUBLIC_URL/);
    expect(
      loadConfig({ SMTP_URL: 'smtp://mail.example:25', KAIROS_PUBLIC_URL: 'https://kairos.example' })
        .publicUrl,
    ).toBe('https://kairos.example');
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ KAIROS_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ KAIROS_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8, 127.0.0.1',
    );
  });

  it('reads where each venue is reached from KAIROS_VENUE_URLS, and refuses venues it does not know', () => {
    expect(loadConfig({}).venueUrls).toEqual({});
    const urls = {
      binanceusdm: 'http://127.0.0.1:9000',
      binance: { public: 'https://proxy.internal', '*': 'https://api.binance.com' },
    };
    expect(loadConfig({ KAIROS_VENUE_URLS: JSON.stringify(urls) }).venueUrls).toEqual(urls);
    expect(() => loadConfig({ KAIROS_VENUE_URLS: '{"mtgox":"http://127.0.0.1:1"}' })).toThrow(
      /KAIROS_VENUE_URLS \(mtgox: unknown venue "mtgox" \(known: binance, binanceusdm/,
    );
    expect(() => loadConfig({ KAIROS_VENUE_URLS: '{"okx":"http://127.0.0.1:1/api"}' })).toThrow(
      /KAIROS_VENUE_URLS \(okx: expected an origin/,
    );
    expect(() => loadConfig({ KAIROS_VENUE_URLS: 'binance=http://x' })).toThrow(/expected JSON/);
    expect(() => loadConfig({ KAIROS_VENUE_URLS: '{"paper":"http://127.0.0.1:1"}' })).toThrow(
      /unknown venue/,
    );
  });
});
