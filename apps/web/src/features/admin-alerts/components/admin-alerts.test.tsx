import type { AdminAlert, AdminAlertDetail } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const NO_OUTCOMES = { total: 0, opened: 0, closed: 0, reversed: 0, skipped: 0, failed: 0 };

/** An alert as GET /admin/alerts sends it. */
function serverAlert(overrides: Partial<AdminAlert> = {}): AdminAlert {
  return {
    id: 'al-1',
    strategyId: 'st-1',
    strategyKey: 'trend-btc',
    action: 'long',
    symbol: 'BTC/USDT',
    price: null,
    status: 'queued',
    attempts: 1,
    maxAttempts: 5,
    lastError: 'Venue timeout',
    deadReason: null,
    receivedAt: '2026-11-20T09:00:00.000Z',
    signalAt: null,
    nextAttemptAt: '2026-11-20T09:05:00.000Z',
    finishedAt: null,
    outcomes: NO_OUTCOMES,
    canMarkDead: true,
    canResume: false,
    ...overrides,
  };
}

function serverDetail(overrides: Partial<AdminAlertDetail> = {}): AdminAlertDetail {
  return {
    ...serverAlert(),
    outcomes: { ...NO_OUTCOMES, total: 2, opened: 1, failed: 1 },
    payload: { strategyKey: 'trend-btc', action: 'long', note: 'from TradingView' },
    startedAt: '2026-11-20T09:00:01.000Z',
    botOutcomes: [
      {
        botId: 'b-1',
        userId: 'u-1',
        userEmail: 'ada@example.com',
        botNickname: 'Ada’s follower',
        status: 'opened',
        message: 'Done: open_long',
        tradeIds: ['t-1'],
        retryable: false,
        at: '2026-11-20T09:00:02.000Z',
      },
      {
        botId: 'b-2',
        userId: 'u-2',
        userEmail: 'bob@example.com',
        botNickname: 'Bob’s bot',
        status: 'failed',
        message: 'Insufficient funds',
        tradeIds: [],
        retryable: false,
        at: '2026-11-20T09:00:02.000Z',
      },
    ],
    errors: [{ at: '2026-11-20T09:00:03.000Z', source: 'worker:w1', message: 'Venue timeout' }],
    history: [
      { fromStatus: null, toStatus: 'queued', actor: 'webhook', note: null, at: '2026-11-20T09:00:00.000Z' },
      {
        fromStatus: 'queued',
        toStatus: 'in_progress',
        actor: 'worker:w1',
        note: null,
        at: '2026-11-20T09:00:01.000Z',
      },
      {
        fromStatus: 'in_progress',
        toStatus: 'failed',
        actor: 'worker:w1',
        note: 'Venue timeout',
        at: '2026-11-20T09:00:03.000Z',
      },
      {
        fromStatus: 'failed',
        toStatus: 'queued',
        actor: 'system',
        note: null,
        at: '2026-11-20T09:00:03.001Z',
      },
    ],
    ...overrides,
  };
}

function page(results: AdminAlert[], total = results.length, pageNumber = 1) {
  return { success: true, results, total, page: pageNumber, pageSize: 25 };
}

const listCalls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.path === '/admin/alerts');
const paramsOf = (request: RecordedRequest | undefined) =>
  Object.fromEntries(new URL(request?.url ?? '', 'http://localhost').searchParams);

/** The alerts table (from 640 px; phones get cards of the same alerts, which the e2e checks). */
async function alertsTable() {
  return within(await screen.findByRole('table', { name: 'Alerts' }, { timeout: 5000 }));
}

async function openAlertsScreen(path: string, handler: Parameters<typeof mockFetch>[0]) {
  const server = mockFetch(handler);
  loginAs({ role: 'admin' });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Alerts', level: 1 }, { timeout: 5000 });
  return { ...server, ...app };
}

describe('AdminAlerts: filters in the URL', () => {
  it('asks for the filters of the URL, 25 a page, and shows them in the form', async () => {
    const { requests } = await openAlertsScreen(
      '/admin/alerts?status=failed&strategyKey=trend-btc&from=2026-11-01&page=2',
      (request) => (request.path === '/admin/alerts' ? { body: page([serverAlert()], 30, 2) } : undefined),
    );
    await (await alertsTable()).findByText('trend-btc');
    const params = paramsOf(listCalls(requests)[0]);
    expect(params).toMatchObject({ page: '2', pageSize: '25', status: 'failed', strategyKey: 'trend-btc' });
    expect(params.from).toMatch(/^2026-1[01]-\d\dT/);
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('failed');
    expect((screen.getByLabelText('Strategy key') as HTMLInputElement).value).toBe('trend-btc');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');
    // The table's pager and the phone's (one of the two is hidden by CSS).
    expect(screen.getAllByText('26–30 of 30')).toHaveLength(2);
  });

  it('puts a changed filter in the URL, back on page 1, and asks again', async () => {
    const { requests, location } = await openAlertsScreen('/admin/alerts?page=3', (request) =>
      request.path === '/admin/alerts' ? { body: page([serverAlert()], 80, 3) } : undefined,
    );
    await (await alertsTable()).findByText('trend-btc');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'dead');
    await waitFor(() => expect(location()).toBe('/admin/alerts?status=dead'));
    await waitFor(() =>
      expect(paramsOf(listCalls(requests).at(-1))).toMatchObject({ page: '1', status: 'dead' }),
    );

    await userEvent.type(screen.getByLabelText('Strategy key'), 'eth-swing');
    await waitFor(() => expect(location()).toBe('/admin/alerts?status=dead&strategyKey=eth-swing'));
    await waitFor(() => expect(paramsOf(listCalls(requests).at(-1)).strategyKey).toBe('eth-swing'));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location()).toBe('/admin/alerts'));
    expect((screen.getByLabelText('Strategy key') as HTMLInputElement).value).toBe('');
  });

  it('keeps both of two changes made in a row (the key field’s blur, then the next field)', async () => {
    const { location } = await openAlertsScreen('/admin/alerts', (request) =>
      request.path === '/admin/alerts' ? { body: page([serverAlert()]) } : undefined,
    );
    await (await alertsTable()).findByText('trend-btc');
    await userEvent.type(screen.getByLabelText('Strategy key'), 'trend-btc');
    // Leaving the field applies the key at once; the status change follows in the same tick.
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(location()).toBe('/admin/alerts?strategyKey=trend-btc&status=failed'));
  });

  it('turns pages in the URL', async () => {
    const { location } = await openAlertsScreen('/admin/alerts?status=queued', (request) =>
      request.path === '/admin/alerts' ? { body: page([serverAlert()], 60) } : undefined,
    );
    await (await alertsTable()).findByText('trend-btc');
    await userEvent.click(screen.getAllByRole('button', { name: 'Next page' })[0] as HTMLElement);
    await waitFor(() => expect(location()).toBe('/admin/alerts?status=queued&page=2'));
  });

  it('says when nothing matches and offers to clear the filters', async () => {
    await openAlertsScreen('/admin/alerts?status=dead', (request) =>
      request.path === '/admin/alerts' ? { body: page([]) } : undefined,
    );
    await screen.findByText('No alert matches these filters');
    expect(screen.getAllByRole('button', { name: 'Clear filters' })).toHaveLength(2);
  });
});

describe('AdminAlerts: detail and actions', () => {
  it('opens an alert in the drawer: payload, attempts, per-bot outcomes, errors and history', async () => {
    const { location } = await openAlertsScreen('/admin/alerts', (request) => {
      if (request.path === '/admin/alerts') return { body: page([serverAlert()]) };
      if (request.path === '/admin/alerts/al-1') return { body: { success: true, results: serverDetail() } };
      return undefined;
    });
    await userEvent.click(
      await (await alertsTable()).findByRole('button', { name: /Open the alert received/ }),
    );
    const drawer = await screen.findByRole('dialog', { name: /Alert/ });
    expect(location()).toBe('/admin/alerts?alert=al-1');
    await within(drawer).findByText(/"note": "from TradingView"/);
    expect(within(drawer).getByText('Attempt 1')).toBeTruthy();
    expect(within(drawer).getByText('Ada’s follower')).toBeTruthy();
    expect(within(drawer).getByText('Insufficient funds')).toBeTruthy();
    expect(within(drawer).getAllByText('Venue timeout').length).toBeGreaterThanOrEqual(2);
    expect(within(drawer).getByText(/Webhook/)).toBeTruthy();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close the alert' }));
    await waitFor(() => expect(location()).toBe('/admin/alerts'));
  });

  it('marks an alert dead with a reason: a blank one is refused, the reason is sent trimmed', async () => {
    let status: AdminAlert['status'] = 'queued';
    const { requests } = await openAlertsScreen('/admin/alerts', (request) => {
      if (request.path === '/admin/alerts')
        return {
          body: page([
            serverAlert({ status, canMarkDead: status === 'queued', canResume: status === 'dead' }),
          ]),
        };
      if (request.path === '/admin/alerts/al-1/dead') {
        status = 'dead';
        return { body: { success: true, results: serverAlert({ status: 'dead' }) } };
      }
      return undefined;
    });
    await userEvent.click(await (await alertsTable()).findByRole('button', { name: 'Mark dead' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Mark this alert dead?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark dead' }));
    expect(within(dialog).getByText('A reason is required to mark an alert dead')).toBeTruthy();
    expect(requests.some((r) => r.path.endsWith('/dead'))).toBe(false);

    await userEvent.type(within(dialog).getByLabelText('Reason'), '  Duplicate signal  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark dead' }));
    await screen.findByText('Alert marked dead');
    expect(requests.find((r) => r.path === '/admin/alerts/al-1/dead')?.body).toEqual({
      reason: 'Duplicate signal',
    });
    // The list is asked again and now offers to resume.
    await (await alertsTable()).findByRole('button', { name: 'Resume' });
    expect(within(screen.getByRole('table', { name: 'Alerts' })).getByText('Dead')).toBeTruthy();
  });

  it('keeps the dialog open with the server’s message when the move is refused', async () => {
    await openAlertsScreen('/admin/alerts', (request) => {
      if (request.path === '/admin/alerts') return { body: page([serverAlert()]) };
      if (request.path === '/admin/alerts/al-1/dead')
        return {
          status: 409,
          body: {
            success: false,
            error: 'INVALID_ALERT_TRANSITION',
            message: 'Cannot mark dead an alert that is in progress',
          },
        };
      return undefined;
    });
    await userEvent.click(await (await alertsTable()).findByRole('button', { name: 'Mark dead' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'stuck');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark dead' }));
    await within(dialog).findByText('Cannot mark dead an alert that is in progress');
    expect(within(dialog).getByText('The alert was not marked dead')).toBeTruthy();
  });

  it('resumes after a confirmation; cancelling sends nothing; a refusal shows the server’s message', async () => {
    let refuse = false;
    const { requests } = await openAlertsScreen('/admin/alerts?status=dead', (request) => {
      if (request.path === '/admin/alerts')
        return { body: page([serverAlert({ status: 'dead', canMarkDead: false, canResume: true })]) };
      if (request.path === '/admin/alerts/al-1/resume')
        return refuse
          ? {
              status: 409,
              body: {
                success: false,
                error: 'INVALID_ALERT_TRANSITION',
                message: 'Cannot resume an alert that is queued',
              },
            }
          : { body: { success: true, results: serverAlert({ status: 'queued' }) } };
      return undefined;
    });
    const resumeCalls = () => requests.filter((r) => r.path === '/admin/alerts/al-1/resume');

    await userEvent.click(await (await alertsTable()).findByRole('button', { name: 'Resume' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Resume this alert?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(resumeCalls()).toHaveLength(0);

    await userEvent.click((await alertsTable()).getByRole('button', { name: 'Resume' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Resume this alert?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Resume' }));
    await screen.findByText('Alert resumed: back in the queue');
    expect(resumeCalls()).toHaveLength(1);
    expect(resumeCalls()[0]?.body, 'Fastify refuses an empty JSON body').toEqual({});

    refuse = true;
    await userEvent.click((await alertsTable()).getByRole('button', { name: 'Resume' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Resume this alert?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Resume' }));
    await screen.findByText('The alert was not resumed');
    expect(screen.getByText('Cannot resume an alert that is queued')).toBeTruthy();
  });
});

describe('refused webhooks', () => {
  it('lists what never became an alert, with the strategy the key names', async () => {
    await openAlertsScreen('/admin/alerts', (request) => {
      if (request.path === '/admin/alerts') return { body: page([serverAlert()]) };
      if (request.path === '/admin/alerts/rejections')
        return {
          body: {
            success: true,
            results: [
              {
                strategyKey: 'btc-swing',
                reason: 'INVALID_WEBHOOK_SECRET',
                count: 12,
                lastAt: '2026-11-21T10:00:00.000Z',
                lastAddress: '52.89.214.238',
                strategyId: 'st-1',
                strategyNickname: 'BTC swing',
                ownerEmail: 'ada@example.com',
              },
            ],
          },
        };
      return undefined;
    });
    const panel = (await screen.findByRole('heading', { name: 'Refused webhooks (last 24 hours)' })).closest(
      'section',
    )!;
    expect(panel.textContent).toContain('INVALID_WEBHOOK_SECRET');
    expect(panel.textContent).toContain('BTC swing · ada@example.com');
    expect(panel.textContent).toContain('12');
    // Below 640 px a card a refusal (issue 21).
    const card = within(
      within(panel as HTMLElement).getByRole('list', { name: 'Refused webhooks (last 24 hours)' }),
    ).getByRole('listitem');
    expect(card.textContent).toMatch(/btc-swing.*BTC swing · ada@example\.com.*12.*INVALID_WEBHOOK_SECRET/);
  });
});

describe('no worker running', () => {
  const health = (workers: number) => ({
    status: 'ok',
    database: { reachable: true, latencyMs: 1 },
    migrations: { applied: 26, expected: 26, upToDate: true },
    worker: {
      lastBeatAt: workers ? '2026-11-21T11:59:00.000Z' : null,
      ageSeconds: workers ? 60 : null,
      workers,
    },
    role: 'api',
    uptimeSeconds: 10,
  });
  const routes = (workers: number) => (request: RecordedRequest) => {
    if (request.path === '/admin/alerts') return { body: page([serverAlert()]) };
    if (request.path === '/healthz') return { body: health(workers) };
    return undefined;
  };

  it('says alerts wait queued when no worker has beaten', async () => {
    await openAlertsScreen('/admin/alerts', routes(0));
    const banner = (await screen.findByText(/No worker is running/)).closest('[role="alert"]')!;
    expect(banner.textContent).toContain('No worker has ever beaten');
  });

  it('says nothing while a worker beats', async () => {
    const { requests } = await openAlertsScreen('/admin/alerts', routes(1));
    await waitFor(() => expect(requests.some((r) => r.path === '/healthz')).toBe(true));
    await (await alertsTable()).findByText('trend-btc');
    expect(screen.queryByText(/No worker is running/)).toBeNull();
  });
});
