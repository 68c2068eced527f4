// Lighthouse (issue 21), mobile preset, for Home (a visitor) and the Dashboard (a trader with a paper account and
// an open trade): performance ≥ 90, accessibility ≥ 98. Chromium is the system one (/usr/bin/chromium, or
// CHROMIUM_PATH), driven through puppeteer-core (Lighthouse's own dependency) so the trader's session is in the
// page's storage before the audit, which keeps it (disableStorageReset).
//   npm run bench -- --lighthouse       adds these figures to the bench's table
//   node bench/lighthouse.mjs           only these, on a Kairos of its own (the web app must be built)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { api, freePort, signUp, startKairos, throwAwayDatabase, waitHealthy } from './common.mjs';

const TARGETS = { performance: 90, accessibility: 98 };

/** One audit of `url` in `page` (Lighthouse's default config is its mobile preset). */
async function audit(page, url) {
  const result = await lighthouse(
    url,
    { output: 'json', logLevel: 'error', onlyCategories: Object.keys(TARGETS), disableStorageReset: true },
    undefined,
    page,
  );
  if (!result?.lhr) throw new Error(`lighthouse gave no report for ${url}`);
  const { categories, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  return Object.fromEntries(
    Object.keys(TARGETS).map((name) => [name, Math.round(categories[name].score * 100)]),
  );
}

/**
 * Audits Home as a visitor, then the Dashboard signed in as `session` (a login's results), and records each
 * score against its target.
 */
export async function lighthouseBench({ base, session, record }) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const scores = { Home: await audit(await browser.newPage(), `${base}/`) };
    // The session goes into the origin's storage from a page of its own; the audit gets a fresh page (one
    // that navigated before gives Lighthouse no navigation start to trace).
    const signIn = await browser.newPage();
    await signIn.goto(`${base}/login`, { waitUntil: 'networkidle0' });
    await signIn.evaluate((s) => {
      localStorage.setItem('auth_token', s.apiToken);
      localStorage.setItem('auth_refresh_token', s.refreshToken);
      localStorage.setItem('auth_user', JSON.stringify(s.user));
    }, session);
    await signIn.close();
    scores.Dashboard = await audit(await browser.newPage(), `${base}/dashboard`);
    for (const [screen, score] of Object.entries(scores))
      for (const [category, target] of Object.entries(TARGETS))
        record(
          `Lighthouse mobile: ${screen} ${category}`,
          `≥ ${target}`,
          String(score[category]),
          score[category] >= target,
        );
    return scores;
  } finally {
    await browser.close();
  }
}

/** A trader with what the Dashboard shows: a paper account and an open manual trade. */
export async function lighthouseTrader(base) {
  const session = await signUp(base, {
    email: `lighthouse-${Date.now()}@kairos.local`,
    password: 'bench-password-long',
  });
  const account = await api(
    base,
    'POST',
    '/api/trading-accounts',
    { nickname: 'Paper', exchange: 'paper', marketType: 'spot', startingBalance: '10000' },
    session.apiToken,
  );
  await api(
    base,
    'POST',
    '/api/trades',
    { accountId: account.id, symbol: 'BTC/USDT', side: 'long', amount: '0.01', stopLossPercent: '3' },
    session.apiToken,
  );
  return session;
}

// Alone: a Kairos of its own on a throw-away database (DATABASE_URL's server, else embedded).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-lighthouse-'));
  const db = await throwAwayDatabase('kairos_lighthouse');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const kairos = startKairos({ ...db.env, PORT: String(port), KAIROS_DATA_DIR: dataDir });
  const rows = [];
  try {
    await waitHealthy(base);
    await lighthouseBench({
      base,
      session: await lighthouseTrader(base),
      record: (figure, target, measured, pass) =>
        rows.push({ figure, target, measured, pass: pass ? 'pass' : 'FAIL' }),
    });
    console.log('\n| figure | target | measured | result |\n|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.figure} | ${r.target} | ${r.measured} | ${r.pass} |`);
  } finally {
    await kairos.stop();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
