import type { BillingUser, BillingUserDetail, MonthlyProcessResult } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockReply, type RecordedRequest, mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { parsePlanPercent } from './plan-form';

const USER_ID = '7d1f3c2a-4b5e-4f60-8a9b-0c1d2e3f4a5b';

const invoice = {
  id: 'inv-1',
  number: 'INV-202610-000001',
  userId: USER_ID,
  userEmail: 'ada@example.com',
  billingRecordId: 'rec-1',
  year: 2026,
  month: 10,
  amount: '50',
  currency: 'USDT' as const,
  status: 'open' as const,
  dueDate: '2026-12-05',
  issuedAt: '2026-11-21T10:00:00.000Z',
  paidAt: null,
  voidedAt: null,
  voidReason: null,
  provider: 'manual',
  providerReference: null,
  createdAt: '2026-11-21T10:00:00.000Z',
};

function billingUser(overrides: Partial<BillingUser> = {}): BillingUser {
  return {
    userId: USER_ID,
    email: 'ada@example.com',
    plan: { percent: '20', active: true, autoCharge: false, updatedAt: '2026-11-01T00:00:00.000Z' },
    currentMonth: { year: 2026, month: 11, profit: '12.5', highWaterMark: '250', estimatedFee: '0' },
    latestInvoice: invoice,
    ...overrides,
  };
}

function detail(overrides: Partial<BillingUserDetail> = {}): BillingUserDetail {
  return {
    ...billingUser(),
    records: [
      {
        id: 'rec-1',
        userId: USER_ID,
        userEmail: 'ada@example.com',
        year: 2026,
        month: 10,
        profit: '250',
        cumulativeProfitBefore: '0',
        cumulativeProfit: '250',
        highWaterMarkBefore: '0',
        highWaterMarkAfter: '250',
        percent: '20',
        feeableProfit: '250',
        fee: '50',
        status: 'invoiced',
        invoiceId: 'inv-1',
        processedAt: '2026-11-21T09:00:00.000Z',
      },
    ],
    invoices: [invoice],
    ...overrides,
  };
}

const processed: MonthlyProcessResult = {
  year: 2026,
  month: 10,
  created: 3,
  unchanged: 1,
  skipped: 0,
  totalProfit: '1250.5',
  totalFees: '210',
  invoicesCreated: 2,
};

async function open(
  path: string,
  handler: (request: RecordedRequest) => MockReply,
  heading: string | RegExp,
) {
  const server = mockFetch(handler);
  loginAs({ role: 'admin' });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: heading, level: 1 }, { timeout: 5000 });
  return { ...server, ...app };
}

beforeEach(() => {
  // Only Date is faked: "now" is 21 November 2026, so October is the last month that is over.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-21T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AdminBillingDashboard', () => {
  it('shows the spec’s columns: user id, plan %, active, auto charge, current month, latest invoice', async () => {
    const { requests } = await open(
      '/admin/billing',
      (request) =>
        request.path === '/admin/billing/users'
          ? { body: { success: true, results: [billingUser()], total: 1, skip: 0, take: 25 } }
          : undefined,
      'Billing',
    );
    const table = await screen.findByRole('table', { name: 'Billing' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'User ID',
      'Plan %',
      'Active',
      'Auto charge',
      'Current month',
      'Latest invoice',
    ]);
    expect(within(table).getByRole('link', { name: USER_ID })).toBeTruthy();
    expect(within(table).getByText('20.00%')).toBeTruthy();
    expect(within(table).getByText('INV-202610-000001')).toBeTruthy();
    // Below 640 px a card a user (issue 21), the same figures and links labelled.
    const card = within(screen.getByRole('list', { name: 'Billing' })).getByRole('listitem');
    expect(within(card).getByRole('link', { name: USER_ID })).toBeTruthy();
    expect(card.textContent).toMatch(/Plan %20\.00%.*Active.*Auto charge.*Current month.*Latest invoice/);
    expect(within(card).getByText('INV-202610-000001')).toBeTruthy();
    expect(Object.fromEntries(new URL(requests[0]!.url, 'http://x').searchParams)).toEqual({
      skip: '0',
      take: '25',
    });
  });

  it('filters on active plans through the URL', async () => {
    const { requests, location } = await open(
      '/admin/billing',
      (request) =>
        request.path === '/admin/billing/users'
          ? { body: { success: true, results: [], total: 0, skip: 0, take: 25 } }
          : undefined,
      'Billing',
    );
    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'true');
    await waitFor(() => expect(location()).toBe('/admin/billing?active=true'));
    await waitFor(() =>
      expect(new URL(requests.at(-1)!.url, 'http://x').searchParams.get('active')).toBe('true'),
    );
    await screen.findByText('No user matches this filter');
  });

  it('processes a month: pick it, confirm, then read the summary', async () => {
    const { requests } = await open(
      '/admin/billing',
      (request) => {
        if (request.path === '/admin/billing/monthly/process')
          return { body: { success: true, results: { ...processed, ...(request.body as object) } } };
        if (request.path === '/admin/billing/users')
          return { body: { success: true, results: [billingUser()], total: 1, skip: 0, take: 25 } };
        return undefined;
      },
      'Billing',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Process a month' }));
    const picker = await screen.findByRole('dialog', { name: 'Process a month' });
    expect((within(picker).getByLabelText('Month') as HTMLSelectElement).value, 'last month by default').toBe(
      '10',
    );
    const november = within(picker).getByRole('option', { name: 'November' }) as HTMLOptionElement;
    expect(november.disabled, 'a month not over cannot be picked').toBe(true);
    await userEvent.selectOptions(within(picker).getByLabelText('Month'), '9');
    await userEvent.click(within(picker).getByRole('button', { name: 'Continue' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Process September 2026?' });
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Process September 2026' }));

    const result = await screen.findByRole('dialog', { name: 'September 2026 processed' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ year: 2026, month: 9 });
    expect(result.textContent).toContain('Records written3');
    expect(result.textContent).toContain('+1,250.50 USDT');
    expect(result.textContent).toContain('Invoices opened (auto charge)2');
  });

  it('shows the server’s reason when it refuses the month', async () => {
    await open(
      '/admin/billing',
      (request) =>
        request.path === '/admin/billing/monthly/process'
          ? {
              status: 422,
              body: { success: false, error: 'PERIOD_NOT_OVER', message: '2026-10 is not over yet' },
            }
          : undefined,
      'Billing',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Process a month' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Process October 2026' }));
    await screen.findByText('The month was not processed');
    expect(screen.getByText('2026-10 is not over yet')).toBeTruthy();
  });
});

describe('AdminUserBillingDetail', () => {
  function detailRoutes(current: () => BillingUserDetail, action?: (request: RecordedRequest) => MockReply) {
    return (request: RecordedRequest): MockReply => {
      if (request.path === '/admin/billing/user' && request.method === 'GET')
        return { body: { success: true, results: current() } };
      return action?.(request);
    };
  }

  it('saves the plan: percent, active and auto charge', async () => {
    const { requests } = await open(
      `/admin/billing/user/${USER_ID}`,
      detailRoutes(detail, (request) =>
        request.method === 'PUT' ? { body: { success: true, results: billingUser() } } : undefined,
      ),
      'ada@example.com',
    );
    const percent = screen.getByLabelText('Profit share');
    await userEvent.clear(percent);
    await userEvent.type(percent, '150');
    await userEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(screen.getByText('Plan percent must be between 0 and 100')).toBeTruthy();
    await userEvent.clear(percent);
    await userEvent.type(percent, '12,5');
    await userEvent.click(screen.getByRole('switch', { name: 'Auto charge' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    await screen.findByText('Plan saved');
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      userId: USER_ID,
      percent: '12.5',
      active: true,
      autoCharge: true,
    });
  });

  it("shows the ledger events behind a month's profit, each with its rate to USDT", async () => {
    await open(
      `/admin/billing/user/${USER_ID}`,
      detailRoutes(detail, (request) =>
        request.path === '/admin/billing/records/rec-1/events'
          ? {
              body: {
                success: true,
                results: [
                  {
                    id: 7,
                    tradeId: '0f1e2d3c-0000-4000-8000-000000000001',
                    kind: 'realised_pnl',
                    amount: '0.002',
                    currency: 'BTC',
                    rate: '65000',
                    amountUsdt: '130',
                    rateSource: 'BTC/USDT (paper venue)',
                    effectiveAt: '2026-10-30T23:50:00.000Z',
                    bookedAt: '2026-11-02T08:00:00.000Z',
                  },
                ],
              },
            }
          : undefined,
      ),
      'ada@example.com',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Events' }));
    const dialog = await screen.findByRole('dialog', { name: 'What October 2026 billed' });
    await within(dialog).findByText('65000');
    expect(dialog.textContent).toContain('BTC');
    expect(dialog.textContent).toContain('130.00 USDT');
  });

  it('opens an invoice from the link, records its payment after a confirmation', async () => {
    let current = detail();
    const { requests, location } = await open(
      `/admin/billing/user/${USER_ID}?invoice=inv-1`,
      detailRoutes(
        () => current,
        (request) => {
          if (request.path !== '/admin/billing/invoices/inv-1/pay') return undefined;
          const paid = {
            ...invoice,
            status: 'paid' as const,
            paidAt: '2026-11-21T12:00:00.000Z',
            providerReference: 'SEPA-42',
          };
          current = detail({ invoices: [paid], latestInvoice: paid });
          return { body: { success: true, results: paid } };
        },
      ),
      'ada@example.com',
    );
    const opened = await screen.findByRole('dialog', { name: 'Invoice INV-202610-000001' });
    expect(opened.textContent).toContain('50.00 USDT');
    await userEvent.click(within(opened).getByRole('button', { name: 'Record payment' }));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Record the payment of INV-202610-000001?',
    });
    expect(confirm.textContent).toContain('This cannot be undone.');
    await userEvent.type(within(confirm).getByLabelText('Payment reference'), 'SEPA-42');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Record payment' }));
    await screen.findByText('Invoice INV-202610-000001 paid');
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reference: 'SEPA-42' });
    const reopened = await screen.findByRole('dialog', { name: 'Invoice INV-202610-000001' });
    await within(reopened).findByText('SEPA-42');
    await userEvent.click(within(reopened).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(location()).toBe(`/admin/billing/user/${USER_ID}`));
  });

  it('voids an invoice only with a reason', async () => {
    const { requests } = await open(
      `/admin/billing/user/${USER_ID}`,
      detailRoutes(detail, (request) =>
        request.path === '/admin/billing/invoices/inv-1/void'
          ? { body: { success: true, results: { ...invoice, status: 'void' } } }
          : undefined,
      ),
      'ada@example.com',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Void' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Void invoice INV-202610-000001?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(within(dialog).getByText('A reason is required to void an invoice')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Agreed refund');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    await screen.findByText('Invoice INV-202610-000001 voided');
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'Agreed refund' });
  });

  it('creates the invoice of a processed month with a fee, then opens it', async () => {
    const pending = detail({
      invoices: [],
      latestInvoice: null,
      records: detail().records.map((record) => ({ ...record, status: 'pending' as const, invoiceId: null })),
    });
    let current = pending;
    const { requests } = await open(
      `/admin/billing/user/${USER_ID}`,
      detailRoutes(
        () => current,
        (request) => {
          if (request.path !== '/admin/billing/invoice/create') return undefined;
          current = detail();
          return { status: 201, body: { success: true, results: { invoice, created: true } } };
        },
      ),
      'ada@example.com',
    );
    await screen.findByText('A processed month has a fee to invoice: create its invoice.');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an invoice' });
    expect(within(dialog).getByRole('option', { name: 'October 2026 · 50.00 USDT' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invoice' }));
    await screen.findByRole('dialog', { name: 'Invoice INV-202610-000001' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      userId: USER_ID,
      year: 2026,
      month: 10,
    });
  });
});

describe('plan percent', () => {
  it.each([
    ['20', '20'],
    ['12,5', '12.5'],
    [' 0 ', '0'],
    ['100', '100'],
  ])('accepts %j as %j', (text, expected) => expect(parsePlanPercent(text)).toBe(expected));

  it.each(['', '-1', '100.01', '150', 'abc', '1e2'])('refuses %j', (text) =>
    expect(parsePlanPercent(text)).toBeUndefined(),
  );
});
