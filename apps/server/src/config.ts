import path from 'node:path';
import { z } from 'zod';
import { offeredVenues } from './exchange/capabilities';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** An integer setting within [min, max], with its default. */
function intBetween(min: number, max: number, fallback: number) {
  const message = `expected an integer between ${min} and ${max}`;
  return z.coerce.number({ message }).int(message).min(min, message).max(max, message).default(fallback);
}

const envSchema = z
  .object({
    PORT: intBetween(1, 65535, 3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL')
        .optional(),
    ),
    KAIROS_DATA_DIR: z.string().min(1).default('./.data'),
    KAIROS_MASTER_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'expected 32 bytes as 64 hex characters or base64')
        .optional(),
    ),
    KAIROS_ADMIN_EMAIL: optionalString.pipe(z.email('expected an email address').optional()),
    KAIROS_ADMIN_SETUP_TOKEN: optionalString.pipe(
      z
        .string()
        .min(16, 'expected at least 16 characters')
        .max(200, 'expected at most 200 characters')
        .optional(),
    ),
    KAIROS_REGISTRATION: z.enum(['open', 'invite'], { message: 'expected open or invite' }).default('open'),
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
        .optional(),
    ),
    KAIROS_ROLE: z.enum(['api', 'worker', 'all'], { message: 'expected api, worker or all' }).default('all'),
    KAIROS_PUBLIC_URL: optionalString.pipe(z.url('expected a URL').optional()),
    KAIROS_CORS_ORIGINS: optionalString,
    KAIROS_VENUE_URLS: optionalString,
    KAIROS_TRUST_PROXY: optionalString.pipe(
      z
        .string()
        .regex(
          /^(true|false|\d{1,2}|[\d.:/a-fA-F,\s]+)$/,
          'expected true, false, a hop count or proxy addresses',
        )
        .optional(),
    ),
    KAIROS_ALERT_LEASE_SECONDS: z.coerce
      .number({ message: 'expected seconds between 2 and 600' })
      .int('expected seconds between 2 and 600')
      .min(2, 'expected seconds between 2 and 600')
      .max(600, 'expected seconds between 2 and 600')
      .default(15),
    KAIROS_WORKER_CONCURRENCY: intBetween(1, 64, 4),
    KAIROS_WEBHOOK_LIMIT: intBetween(1, 1_000_000, 60),
    KAIROS_WEBHOOK_ADDRESS_LIMIT: intBetween(1, 1_000_000, 1_200),
    KAIROS_WEBHOOK_QUEUE_CAP: intBetween(1, 1_000_000, 200),
    KAIROS_BOT_CONCURRENCY: intBetween(1, 256, 32),
    KAIROS_USER_READ_LIMIT: intBetween(1, 1_000_000, 600),
    KAIROS_USER_WRITE_LIMIT: intBetween(1, 1_000_000, 120),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'expected fatal, error, warn, info, debug, trace or silent',
      })
      .default('info'),
  })
  // Reset links must not be built from a request's Host header once real mail leaves the machine.
  .refine((e) => !e.SMTP_URL || e.KAIROS_PUBLIC_URL, {
    path: ['KAIROS_PUBLIC_URL'],
    message: 'required when SMTP_URL is set (links in mail must not trust the request Host)',
  });

export type AppConfig = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  masterKey: string | undefined;
  adminEmail: string | undefined;
  /** The token that registering `adminEmail` needs while no admin exists (unset: one is made at start). */
  adminSetupToken: string | undefined;
  /**
   * Who may register (issue 20): `open`, anyone; `invite` (KAIROS_REGISTRATION=invite), only someone holding an
   * admin's invite link (besides the first admin, with the setup token).
   */
  registration: 'open' | 'invite';
  smtpUrl: string | undefined;
  role: 'api' | 'worker' | 'all';
  /** Where users reach Kairos (KAIROS_PUBLIC_URL, else http://localhost:PORT), without a trailing slash. */
  publicUrl: string;
  corsOrigins: string[];
  /** Fastify `trustProxy`: false by default, so X-Forwarded-For cannot dodge per-IP limits. */
  trustProxy: boolean | number | string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  alertLeaseSeconds: number;
  workerConcurrency: number;
  /**
   * Webhooks (issue 20): alerts a strategy may send per minute (authenticated ones only: a stranger knowing
   * the key cannot use up its owner's), requests per minute from one address (TradingView sends everyone's
   * from 4 addresses: generous), and queued alerts a strategy may hold.
   */
  webhookLimit: { perStrategyPerMinute: number; perAddressPerMinute: number; queueCap: number };
  botConcurrency: number;
  /**
   * Requests one signed-in user may make per minute on the authenticated API (issue 20), reads (GET, HEAD)
   * and writes apart: the web app polls a few reads every few seconds, a person writes far less.
   */
  userLimit: { readsPerMinute: number; writesPerMinute: number };
  /** Where ccxt reaches each venue listed (KAIROS_VENUE_URLS); the venue's own hosts for the others. */
  venueUrls: VenueUrls;
};

/**
 * One venue's API location: an origin (`http://host:port`) that replaces the scheme and host of every API URL
 * of the venue, or an origin per ccxt API family (`public`, `fapiPrivate`, … — `*` for the families not listed;
 * families neither listed nor covered by `*` keep the venue's own host).
 */
export type VenueUrl = string | Record<string, string>;
export type VenueUrls = Record<string, VenueUrl>;

const origin = z
  .string()
  .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'expected an origin such as http://127.0.0.1:9000 (no path)');
const venueUrlsSchema = z.record(
  z.string(),
  z.union([origin, z.record(z.string().min(1), origin)], {
    error: 'expected an origin or an object of origins',
  }),
);

/** KAIROS_VENUE_URLS: JSON, venue id → origin (or origin per API family). */
function parseVenueUrls(text: string | undefined): { venueUrls: VenueUrls } | { problem: string } {
  if (text === undefined) return { venueUrls: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'KAIROS_VENUE_URLS (expected JSON such as {"binanceusdm":"http://127.0.0.1:9000"})' };
  }
  const parsed = venueUrlsSchema.safeParse(json);
  if (parsed.success) {
    const known = offeredVenues().map((v) => v.id);
    const unknown = Object.keys(parsed.data).find((id) => !known.includes(id));
    if (unknown === undefined) return { venueUrls: parsed.data };
    return {
      problem: `KAIROS_VENUE_URLS (${unknown}: unknown venue ${JSON.stringify(unknown)} (known: ${known.join(', ')}))`,
    };
  }
  const issue = parsed.error.issues[0]!;
  return { problem: `KAIROS_VENUE_URLS (${[...issue.path].join('.')}: ${issue.message})` };
}

export class ConfigError extends Error {}

/** Parses the environment once at boot; every bad variable is named in one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const value = env[name];
      return `${name} (${issue.message}${value !== undefined ? `, got ${JSON.stringify(value)}` : ''})`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const venues = parseVenueUrls(e.KAIROS_VENUE_URLS);
  if ('problem' in venues) throw new ConfigError(`Invalid configuration: ${venues.problem}`);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.KAIROS_DATA_DIR),
    masterKey: e.KAIROS_MASTER_KEY,
    adminEmail: e.KAIROS_ADMIN_EMAIL?.toLowerCase(),
    adminSetupToken: e.KAIROS_ADMIN_SETUP_TOKEN,
    registration: e.KAIROS_REGISTRATION,
    smtpUrl: e.SMTP_URL,
    role: e.KAIROS_ROLE,
    // Links in mail are built from it, never from a request's Host header (which a client chooses).
    publicUrl: (e.KAIROS_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    trustProxy: parseTrustProxy(e.KAIROS_TRUST_PROXY),
    corsOrigins: (e.KAIROS_CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    alertLeaseSeconds: e.KAIROS_ALERT_LEASE_SECONDS,
    workerConcurrency: e.KAIROS_WORKER_CONCURRENCY,
    webhookLimit: {
      perStrategyPerMinute: e.KAIROS_WEBHOOK_LIMIT,
      perAddressPerMinute: e.KAIROS_WEBHOOK_ADDRESS_LIMIT,
      queueCap: e.KAIROS_WEBHOOK_QUEUE_CAP,
    },
    botConcurrency: e.KAIROS_BOT_CONCURRENCY,
    userLimit: { readsPerMinute: e.KAIROS_USER_READ_LIMIT, writesPerMinute: e.KAIROS_USER_WRITE_LIMIT },
    venueUrls: venues.venueUrls,
  };
}

function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (!v || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
