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
});
