import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { type Row, field, flag, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { BILLING_PAGE_SIZE, useBillingUsers } from '../api/get-billing-users';

function YesNo({ value }: { value: boolean | undefined }) {
  const { t } = useTranslation();
  if (value === undefined) return <>—</>;
  return value ? (
    <Badge tone="success" glyph="✓">
      {t('common.yes')}
    </Badge>
  ) : (
    <Badge glyph="–">{t('common.no')}</Badge>
  );
}

/** Spec §2: user id, plan %, active, auto charge, current month, latest invoice. */
export function BillingUsersTable() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const users = useBillingUsers(page);
  const columns: Column<Row>[] = [
    {
      key: 'userId',
      header: t('billing.columns.userId'),
      cell: (row) => {
        const userId = text(row, 'userId', 'user_id', 'id');
        return userId ? (
          <Link to={paths.adminUserBilling(userId)} className="font-mono text-xs text-accent hover:underline">
            {userId}
          </Link>
        ) : (
          '—'
        );
      },
    },
    {
      key: 'plan',
      header: t('billing.columns.planPercent'),
      numeric: true,
      cell: (row) => format.percent(numeric(field(row, 'plan') ?? row, 'percent', 'planPercent')),
    },
    {
      key: 'active',
      header: t('billing.columns.active'),
      cell: (row) => <YesNo value={flag(field(row, 'plan') ?? row, 'active')} />,
    },
    {
      key: 'autoCharge',
      header: t('billing.columns.autoCharge'),
      cell: (row) => <YesNo value={flag(field(row, 'plan') ?? row, 'autoCharge')} />,
    },
    {
      key: 'currentMonth',
      header: t('billing.columns.currentMonth'),
      numeric: true,
      cell: (row) => (
        <span>
          {format.currencyValue(
            numeric(field(row, 'currentMonth') ?? row, 'fee', 'profit', 'currentMonthFee'),
          )}
        </span>
      ),
    },
    {
      key: 'latestInvoice',
      header: t('billing.columns.latestInvoice'),
      cell: (row) => {
        const invoice = field(row, 'latestInvoice');
        return invoice ? (
          <span className="inline-flex items-center gap-2">
            <span className="num">{text(invoice, 'number') ?? '—'}</span>
            <StatusText status={text(invoice, 'status')} />
          </span>
        ) : (
          '—'
        );
      },
    },
  ];
  return (
    <Table
      caption={t('billing.title')}
      columns={columns}
      rows={users.data?.items}
      rowKey={(row) => text(row, 'userId', 'user_id', 'id') ?? JSON.stringify(row)}
      loading={users.isPending}
      error={users.isError ? users.error : undefined}
      onRetry={() => void users.refetch()}
      empty={<EmptyState title={t('billing.empty.title')} description={t('billing.empty.description')} />}
      pagination={{ page, pageSize: BILLING_PAGE_SIZE, total: users.data?.total ?? 0, onPageChange: setPage }}
    />
  );
}

function StatusText({ status }: { status: string | undefined }) {
  return status ? <Badge>{status}</Badge> : null;
}
