import type { MyBilling } from '@kairos/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';

const billing: MyBilling = {
  plan: { percent: '20', active: true, autoCharge: false, updatedAt: '2026-10-01T00:00:00.000Z' },
  currentMonth: { year: 2026, month: 11, profit: '35.5', highWaterMark: '600', estimatedFee: '0' },
  months: [
    {
      id: 'r-1',
      year: 2026,
      month: 10,
      profit: '600',
      cumulativeProfitBefore: '0',
      cumulativeProfit: '600',
      highWaterMarkBefore: '0',
      highWaterMarkAfter: '600',
      percent: '20',
      feeableProfit: '600',
      fee: '120',
      status: 'invoiced',
      invoiceId: 'i-1',
      processedAt: '2026-11-01T00:05:00.000Z',
    },
  ],
  invoices: [
    {
      id: 'i-1',
      number: 'INV-202610-000001',
      billingRecordId: 'r-1',
      year: 2026,
      month: 10,
      amount: '120',
      currency: 'USDT',
      status: 'open',
      dueDate: '2026-11-15',
      issuedAt: '2026-11-01T00:05:00.000Z',
      paidAt: null,
      voidedAt: null,
      voidReason: null,
      createdAt: '2026-11-01T00:05:00.000Z',
    },
  ],
};

function server(answer: MyBilling) {
  return mockFetch((request) =>
    request.path === '/api/billing' ? { body: { success: true, results: answer } } : undefined,
  );
}

describe('Billing (the user’s own)', () => {
  it(
    'shows the plan, the month in progress, what is due, each month billed and the invoices',
    { timeout: 15_000 },
    async () => {
      server(billing);
      loginAs();
      renderApp('/billing');
      const months = await screen.findByRole('table', { name: 'Months billed' }, { timeout: 5000 });
      const row = within(months).getAllByRole('row')[1]!;
      expect(row.textContent).toContain('October 2026');
      expect(row.textContent).toContain('+600.00');
      expect(row.textContent).toContain('120.00');
      expect(row.textContent).toContain('Invoiced');
      const invoices = screen.getByRole('table', { name: 'Invoices' });
      expect(invoices.textContent).toContain('INV-202610-000001');
      expect(invoices.textContent).toContain('To pay');
      expect(screen.getByText('Your plan', { exact: true }).parentElement!.textContent).toContain('20.00%');
      expect(screen.getByText('To pay', { selector: 'p' }).parentElement!.textContent).toContain('120.00');
      expect(screen.getByText('1 open invoice')).toBeTruthy();
    },
  );

  it('says nothing is charged without a plan', { timeout: 15_000 }, async () => {
    server({ ...billing, plan: null, months: [], invoices: [] });
    loginAs();
    renderApp('/billing');
    expect(await screen.findByText('Nothing is charged.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('No month billed yet')).toBeTruthy();
    expect(screen.getByText('No invoices')).toBeTruthy();
  });

  it('speaks French', { timeout: 15_000 }, async () => {
    server(billing);
    await changeLanguage('fr-FR');
    loginAs();
    renderApp('/billing');
    const months = await screen.findByRole('table', { name: 'Mois facturés' }, { timeout: 5000 });
    expect(months.textContent).toContain('Octobre 2026');
    expect(screen.getByRole('table', { name: 'Factures' }).textContent).toContain('À payer');
  });
});
