// Lighthouse (issue 21), mobile preset, for Home (a visitor) and the Dashboard (a trader with a paper account and
// an open trade): performance ≥ 90, accessibility ≥ 98. Chromium is the system one (/usr/bin/chromium, or
// CHROMIUM_PATH), driven through puppeteer-core (Lighthouse's own dependency) so the trader's session is in the
// page's storage before the audit, which keeps it (disableStorageReset).
// Every audit starts with an empty HTTP cache (a first visit). Each screen is audited LIGHTHOUSE_RUNS times (default
// 3) and its median score recorded; alone, the script also prints the diagnostics' medians (the metrics, the main
// thread's work, bootup, long tasks, the JavaScript fetched and left unused, the LCP element).
//   npm run bench -- --lighthouse       adds these figures to the bench's table
//   node bench/lighthouse.mjs           only these, on a Kairos of its own (the web app must be built)
//   LIGHTHOUSE_REPORTS=<dir>            keeps each run's JSON report there
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { api, freePort, signUp, startKairos, throwAwayDatabase, waitHealthy } from './common.mjs';

const TARGETS = { performance: 90, accessibility: 98 };
// Each screen is audited this many times (LIGHTHOUSE_RUNS, default 3) and its median recorded: a single run on a
// shared 2-core machine moves by 10 points or more.
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
// LIGHTHOUSE_REPORTS=<dir> keeps every run's JSON report (lhr) there, to read the diagnostics in full.
const REPORTS = process.env.LIGHTHOUSE_REPORTS;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * What a report says about the work behind the score (milliseconds unless named): the metrics, the main thread's
 * work and its scripts, the long tasks, the JavaScript that came over the network and how much of it ran.
 */
function diagnostics(lhr) {
  const audits = lhr.audits;
  const value = (id) => audits[id]?.numericValue ?? NaN;
  const items = (id) => audits[id]?.details?.items ?? [];
  const scripts = items('network-requests').filter((r) => r.resourceType === 'Script');
  const longTasks = items('long-tasks');
  const work = Object.fromEntries(items('mainthread-work-breakdown').map((i) => [i.group, i.duration]));
  return {
    FCP: value('first-contentful-paint'),
    LCP: value('largest-contentful-paint'),
    TBT: value('total-blocking-time'),
    'Speed Index': value('speed-index'),
    TTI: value('interactive'),
    'CLS (×1000)': value('cumulative-layout-shift') * 1000,
    'main-thread work': value('mainthread-work-breakdown'),
    '  script evaluation': work.scriptEvaluation ?? 0,
    '  style & layout': work.styleLayout ?? 0,
    '  other': work.other ?? 0,
    'JS bootup time': value('bootup-time'),
    'long tasks (count)': longTasks.length,
    'long tasks (sum)': longTasks.reduce((sum, t) => sum + t.duration, 0),
    'JS requests (count)': scripts.length,
    'JS on the wire (KB)': scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024,
    'unused JS (KB)': (audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024,
    'DOM elements': value('dom-size'),
  };
}

/** The largest contentful paint's element as Lighthouse names it. */
const lcpElement = (lhr) =>
  lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.nodeLabel ?? '?';

/**
 * One audit of `url` in a fresh page of `browser` (Lighthouse's default config is its mobile preset), with an
 * empty HTTP cache — a first visit's — but the origin's storage kept (the trader's session).
 */
async function audit(browser, url, name, run, attempt = 1) {
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const result = await lighthouse(
    url,
    { output: 'json', logLevel: 'error', onlyCategories: Object.keys(TARGETS), disableStorageReset: true },
    undefined,
    page,
  );
  if (!result?.lhr) throw new Error(`lighthouse gave no report for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    await page.close();
    // On a busy machine the trace sometimes misses the navigation's start (NO_NAVSTART): Lighthouse says to run
    // it again, which is done twice at most.
    if (attempt < 3) return audit(browser, url, name, run, attempt + 1);
    throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  if (REPORTS) {
    fs.mkdirSync(REPORTS, { recursive: true });
    fs.writeFileSync(path.join(REPORTS, `${name}-${run + 1}.json`), JSON.stringify(lhr));
  }
  await page.close();
  return {
    score: Object.fromEntries(
      Object.keys(TARGETS).map((category) => [category, Math.round(lhr.categories[category].score * 100)]),
    ),
    diagnostics: diagnostics(lhr),
    lcpElement: lcpElement(lhr),
  };
}

/**
 * Audits Home as a visitor, then the Dashboard signed in as `session` (a login's results), RUNS times each, and
 * records each median score against its target. Returns every run's scores and diagnostics by screen.
 */
export async function lighthouseBench({ base, session, record, runs = RUNS }) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const results = { Home: [], Dashboard: [] };
    for (let run = 0; run < runs; run += 1) results.Home.push(await audit(browser, `${base}/`, 'home', run));
    // The session goes into the origin's storage from a page of its own; each audit gets a fresh page (one
    // that navigated before gives Lighthouse no navigation start to trace).
    const signIn = await browser.newPage();
    await signIn.goto(`${base}/login`, { waitUntil: 'networkidle0' });
    await signIn.evaluate((s) => {
      localStorage.setItem('auth_token', s.apiToken);
      localStorage.setItem('auth_refresh_token', s.refreshToken);
      localStorage.setItem('auth_user', JSON.stringify(s.user));
    }, session);
    await signIn.close();
    for (let run = 0; run < runs; run += 1)
      results.Dashboard.push(await audit(browser, `${base}/dashboard`, 'dashboard', run));
    for (const [screen, audits] of Object.entries(results))
      for (const [category, target] of Object.entries(TARGETS)) {
        const scores = audits.map((a) => a.score[category]);
        const score = median(scores);
        record(
          `Lighthouse mobile: ${screen} ${category}${runs > 1 ? ` (median of ${runs})` : ''}`,
          `≥ ${target}`,
          runs > 1 ? `${score} [${scores.join(', ')}]` : String(score),
          score >= target,
        );
      }
    return results;
  } finally {
    await browser.close();
  }
}

/** The diagnostics' medians (and range) per screen, as a Markdown table. */
export function diagnosticsTable(results) {
  const screens = Object.keys(results);
  const names = Object.keys(results[screens[0]][0].diagnostics);
  const cell = (screen, name) => {
    const values = results[screen].map((a) => a.diagnostics[name]);
    const digits = name.includes('KB') ? 1 : 0;
    const fmt = (v) => v.toFixed(digits);
    return values.length > 1
      ? `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`
      : fmt(values[0]);
  };
  const lines = [
    `| diagnostic (median, range) | ${screens.join(' | ')} |`,
    `|---|${screens.map(() => '---').join('|')}|`,
  ];
  for (const name of names) lines.push(`| ${name} | ${screens.map((s) => cell(s, name)).join(' | ')} |`);
  lines.push(
    `| LCP element | ${screens.map((s) => [...new Set(results[s].map((a) => a.lcpElement.slice(0, 40)))].join('; ')).join(' | ')} |`,
  );
  return lines.join('\n');
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
    const results = await lighthouseBench({
      base,
      session: await lighthouseTrader(base),
      record: (figure, target, measured, pass) =>
        rows.push({ figure, target, measured, pass: pass ? 'pass' : 'FAIL' }),
    });
    console.log('\n| figure | target | measured | result |\n|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.figure} | ${r.target} | ${r.measured} | ${r.pass} |`);
    console.log(`\n${diagnosticsTable(results)}`);
  } finally {
    await kairos.stop();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
