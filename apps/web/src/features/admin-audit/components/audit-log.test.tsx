import type { AuditEntry } from '@kairos/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { auditFiltersFromSearch } from './audit-log';

const planUpdate: AuditEntry = {
  id: 'a-2',
  actorId: 'admin-1',
  actor: 'admin:admin-1',
  actorEmail: 'operator@example.com',
  action: 'billing.plan_update',
  target: 'user:u-1',
  details: { percent: '10' },
  outcome: 'ok',
  error: null,
  at: '2026-11-24T10:00:00.000Z',
};
const monthly: AuditEntry = {
  ...planUpdate,
  id: 'a-1',
  actorId: null,
  actor: 'system',
  actorEmail: null,
  action: 'billing.monthly_process',
  target: 'billing:2026-10',
  details: {},
  outcome: 'error',
  error: 'database unavailable',
};

function server(total = 2) {
  return mockFetch((request) =>
    request.path === '/admin/audit'
      ? { body: { success: true, results: [planUpdate, monthly], total, skip: 0, take: 25 } }
      : undefined,
  );
}
const auditCalls = (requests: { path: string; url: string }[]) =>
  requests
    .filter((r) => r.path === '/admin/audit')
    .map((r) => new URL(r.url, 'http://localhost').searchParams);

describe('Admin → Audit log', () => {
  it('lists who did what, on what and how it went, newest first', { timeout: 15_000 }, async () => {
    server();
    loginAs({ role: 'admin' });
    renderApp('/admin/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('operator@example.com');
    expect(rows[1]!.textContent).toContain('billing.plan_update');
    expect(rows[1]!.textContent).toContain('user:u-1');
    expect(rows[1]!.textContent).toContain('Done');
    expect(rows[2]!.textContent).toContain('System');
    expect(rows[2]!.textContent).toContain('Failed');
    await userEvent.click(within(rows[1]!).getByText('Show'));
    expect(rows[1]!.textContent).toContain('"percent": "10"');
    expect(screen.getAllByRole('link', { name: 'Audit log' })[0]!.getAttribute('href')).toBe('/admin/audit');
  });

  it('sends the filters and pages, kept in the address', { timeout: 20_000 }, async () => {
    const { requests } = server(60);
    loginAs({ role: 'admin' });
    renderApp('/admin/audit');
    await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    expect(auditCalls(requests).at(-1)!.get('take')).toBe('25');
    await userEvent.click(screen.getAllByRole('button', { name: /next/i })[0]!);
    await waitFor(() => expect(auditCalls(requests).at(-1)!.get('skip')).toBe('25'));
    await userEvent.type(screen.getByLabelText('Action'), 'billing{Enter}');
    await userEvent.type(screen.getByLabelText('Who'), 'operator{Enter}');
    await waitFor(() => {
      const query = auditCalls(requests).at(-1)!;
      expect(query.get('action')).toBe('billing');
      expect(query.get('actor')).toBe('operator');
      expect(query.get('skip')).toBe('0');
    });
    expect(window.location.search).toContain('action=billing');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect([...auditCalls(requests).at(-1)!.keys()].sort()).toEqual(['skip', 'take']));
  });

  it('reads only valid dates from the address', () => {
    const filters = auditFiltersFromSearch(new URLSearchParams('from=2026-11-01&to=nope&page=3'));
    expect(filters).toEqual({
      action: undefined,
      actor: undefined,
      from: new Date('2026-11-01T00:00:00').toISOString(),
      to: undefined,
      page: 3,
    });
  });

  it('speaks French', { timeout: 15_000 }, async () => {
    server();
    await changeLanguage('fr-FR');
    loginAs({ role: 'admin' });
    renderApp('/admin/audit');
    await screen.findByRole('heading', { name: 'Journal d’audit', level: 1 }, { timeout: 5000 });
    const table = await screen.findByRole('table', { name: 'Journal d’audit' });
    expect(table.textContent).toContain('Système');
    expect(table.textContent).toContain('Échec');
  });
});
