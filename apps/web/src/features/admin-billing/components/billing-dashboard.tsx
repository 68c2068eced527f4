import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/select';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { paths } from '../../../config/paths';
import { useFormatters } from '../../../lib/use-formatters';
import { BILLING_PAGE_SIZE, type BillingUser, useBillingUsers } from '../api/get-billing-users';
import { InvoiceStatusBadge, Money, YesNo, usePeriodLabel } from './billing-labels';
import { ProcessMonthDialog } from './process-month-dialog';
import { useSearchWriter } from '../../../lib/use-search-writer';

/** `?active=true|false`: users whose plan is active, or everyone else. */
function activeFilter(search: URLSearchParams): boolean | undefined {
  const value = search.get('active');
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** The page header's action: process a month for every user. */
export function ProcessMonthAction() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="primary" onClick={() => setOpen(true)}>
        {t('billing.process.open')}
      </Button>
      {open ? <ProcessMonthDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** AdminBillingDashboard (spec §2): user id, plan %, active, auto charge, current month, latest invoice. */
export function BillingDashboard() {
  const { t } = useTranslation();
  const format = useFormatters();
  const periodLabel = usePeriodLabel();
  const [search, setSearch] = useSearchWriter();
  const active = activeFilter(search);
  const page = Math.max(1, Number(search.get('page')) || 1);
  const users = useBillingUsers(page, active);

  const update = (changes: Record<string, string | undefined>) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      return next;
    });

  const columns: Column<BillingUser>[] = [
    {
      key: 'userId',
      header: t('billing.columns.userId'),
      cell: (user) => (
        // The id wraps over two lines (and the email where it must): the six columns fit 1023 px in French.
        <span className="flex max-w-[12rem] flex-col">
          <Link
            to={paths.adminUserBilling(user.userId)}
            className="break-all font-mono text-xs text-accent hover:underline"
          >
            {user.userId}
          </Link>
          <span className="break-all text-xs text-muted">{user.email}</span>
        </span>
      ),
    },
    {
      key: 'plan',
      header: t('billing.columns.planPercent'),
      numeric: true,
      cell: (user) =>
        user.plan ? (
          format.percent(user.plan.percent)
        ) : (
          <span className="text-subtle">{t('billing.noPlan')}</span>
        ),
    },
    {
      key: 'active',
      header: t('billing.columns.active'),
      cell: (user) => <YesNo value={user.plan?.active} />,
    },
    {
      key: 'autoCharge',
      header: t('billing.columns.autoCharge'),
      cell: (user) => <YesNo value={user.plan?.autoCharge} />,
    },
    {
      key: 'currentMonth',
      header: t('billing.columns.currentMonth'),
      numeric: true,
      cell: (user) => (
        <span className="flex flex-col items-end" title={periodLabel(user.currentMonth)}>
          <Money value={user.currentMonth.profit} signed />
          <span className="text-xs text-muted">
            {t('billing.estimatedFee')} <Money value={user.currentMonth.estimatedFee} />
          </span>
        </span>
      ),
    },
    {
      key: 'latestInvoice',
      header: t('billing.columns.latestInvoice'),
      cell: (user) =>
        user.latestInvoice ? (
          <Link
            to={`${paths.adminUserBilling(user.userId)}?invoice=${encodeURIComponent(user.latestInvoice.id)}`}
            className="flex flex-col items-start gap-0.5 hover:underline"
          >
            {/* Number and status over the amount: on one line the table scrolled sideways at 1280 px. */}
            <span className="inline-flex items-center gap-2">
              <span className="num text-fg">{user.latestInvoice.number}</span>
              <InvoiceStatusBadge status={user.latestInvoice.status} />
            </span>
            <Money
              value={user.latestInvoice.amount}
              currency={user.latestInvoice.currency}
              className="text-xs text-muted"
            />
          </Link>
        ) : (
          <span className="text-subtle">—</span>
        ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label={t('billing.filter.label')}
          value={active === undefined ? '' : String(active)}
          onChange={(event) => update({ active: event.target.value || undefined, page: undefined })}
          options={[
            { value: '', label: t('billing.filter.all') },
            { value: 'true', label: t('billing.filter.active') },
            { value: 'false', label: t('billing.filter.inactive') },
          ]}
          fieldClassName="w-56"
        />
      </div>
      <TableOrCards
        caption={t('billing.title')}
        columns={columns}
        rows={users.data?.items ?? []}
        rowKey={(user) => user.userId}
        {...queryState(users)}
        // Below 640 px a card a user (issue 21: the six columns scrolled sideways on a phone).
        card={(user, cell) => (
          <RowCard title={cell('userId')}>
            <span className="flex flex-wrap gap-x-5 gap-y-1">
              <CardFigure label={t('billing.columns.planPercent')}>{cell('plan')}</CardFigure>
              <CardFigure label={t('billing.columns.active')}>{cell('active')}</CardFigure>
              <CardFigure label={t('billing.columns.autoCharge')}>{cell('autoCharge')}</CardFigure>
            </span>
            {(['currentMonth', 'latestInvoice'] as const).map((key) => (
              <span key={key} className="flex items-start justify-between gap-3">
                <span className="text-xs text-muted">{t(`billing.columns.${key}`)}</span>
                {cell(key)}
              </span>
            ))}
          </RowCard>
        )}
        empty={
          <Card>
            <EmptyState
              title={active === undefined ? t('billing.empty.title') : t('billing.empty.filteredTitle')}
              description={
                active === undefined ? t('billing.empty.description') : t('billing.empty.filteredDescription')
              }
            />
          </Card>
        }
        pagination={{
          page,
          pageSize: BILLING_PAGE_SIZE,
          total: users.data?.total ?? 0,
          onPageChange: (next) => update({ page: next > 1 ? String(next) : undefined }),
        }}
      />
    </div>
  );
}
