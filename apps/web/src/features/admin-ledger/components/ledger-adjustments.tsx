import { zodResolver } from '@hookform/resolvers/zod';
import { ledgerAdjustmentBody } from '@kairos/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { PnlText } from '../../../components/ui/pnl-text';
import { Select } from '../../../components/ui/select';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { toast } from '../../../components/ui/toast';
import { useTranslateMessage } from '../../../i18n/translate-message';
import { formatMoney } from '../../../lib/money';
import { useFormatters } from '../../../lib/use-formatters';
import { usePageParam } from '../../../lib/use-search-writer';
import {
  ADJUSTMENTS_PAGE_SIZE,
  type LedgerAdjustmentListItem,
  useAddAdjustment,
  useAdjustableUsers,
  useAdjustments,
} from '../api/adjustments';

/** The contract's body, with a user to pick first. */
const adjustmentFormSchema = ledgerAdjustmentBody.extend({
  userId: z.string().min(1, 'Please choose a user'),
});
type AdjustmentFormInput = z.input<typeof adjustmentFormSchema>;
type AdjustmentFormValues = z.output<typeof adjustmentFormSchema>;

/**
 * Admin → Ledger adjustments (issue 19): a correction of what a user is billed on is a new ledger event,
 * never an edit — posted here after a confirmation, listed below with who it was for and why.
 */
export function LedgerAdjustments() {
  return (
    <div className="flex flex-col gap-5">
      <AdjustmentForm />
      <AdjustmentList />
    </div>
  );
}

export function AdjustmentForm() {
  const { t } = useTranslation();
  const message = useTranslateMessage();
  const format = useFormatters();
  const users = useAdjustableUsers();
  const add = useAddAdjustment();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<AdjustmentFormInput, unknown, AdjustmentFormValues>({
    resolver: zodResolver(adjustmentFormSchema),
    defaultValues: { userId: '', amount: '', currency: 'USDT', reason: '' },
  });

  const submit = handleSubmit(async (values) => {
    const email = users.data?.find((u) => u.userId === values.userId)?.email ?? values.userId;
    const amount = formatMoney(values.amount, values.currency, {
      locale: format.locale,
      signDisplay: 'always',
    });
    const confirmed = await confirmAction({
      title: t('ledger.confirm.title'),
      message: t('ledger.confirm.message', { email, amount }),
      confirmLabel: t('ledger.confirm.action'),
    });
    if (!confirmed) return;
    add.mutate(values, {
      onSuccess: () => {
        toast.success(t('ledger.form.added', { email }));
        reset();
      },
    });
  });

  return (
    <Card>
      <CardHeader title={t('ledger.form.title')} description={t('ledger.form.description')} />
      <CardBody>
        <form
          onSubmit={(event) => void submit(event)}
          noValidate
          aria-label={t('ledger.form.title')}
          className="grid items-start gap-x-4 gap-y-3 sm:grid-cols-2 xl:grid-cols-[minmax(14rem,1fr)_10rem_8rem_minmax(14rem,2fr)]"
        >
          <Select
            label={t('ledger.form.user')}
            error={message(errors.userId?.message)}
            {...register('userId')}
            options={[
              {
                value: '',
                label: users.isPending ? t('ledger.form.loadingUsers') : t('ledger.form.pickUser'),
              },
              ...(users.data ?? []).map((u) => ({ value: u.userId, label: u.email })),
            ]}
          />
          <Input
            label={t('ledger.form.amount')}
            inputMode="decimal"
            hint={t('ledger.form.amountHint')}
            error={message(errors.amount?.message)}
            {...register('amount')}
          />
          <Input
            label={t('ledger.form.currency')}
            maxLength={12}
            error={message(errors.currency?.message)}
            {...register('currency')}
          />
          <Input
            label={t('ledger.form.reason')}
            maxLength={500}
            error={message(errors.reason?.message)}
            {...register('reason')}
          />
          <div className="sm:col-span-2 xl:col-span-4">
            <Button type="submit" loading={add.isPending}>
              {t('ledger.form.submit')}
            </Button>
          </div>
        </form>
        {users.isError ? <FormError title={t('ledger.form.usersFailed')} error={users.error} /> : null}
        {add.isError ? <FormError title={t('ledger.form.failed')} error={add.error} /> : null}
      </CardBody>
    </Card>
  );
}

function AdjustmentList() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = usePageParam();
  const adjustments = useAdjustments(page);

  const columns: Column<LedgerAdjustmentListItem>[] = [
    {
      key: 'bookedAt',
      header: t('ledger.columns.bookedAt'),
      cell: (a) => <span className="num whitespace-nowrap">{format.time(a.bookedAt, 'dateTime')}</span>,
    },
    {
      key: 'user',
      header: t('ledger.columns.user'),
      cell: (a) => <span className="break-all">{a.userEmail}</span>,
    },
    {
      key: 'amount',
      header: t('ledger.columns.amount'),
      className: 'text-right',
      cell: (a) => <PnlText value={a.amount} kind="money" currency={a.currency} />,
    },
    {
      key: 'reason',
      header: t('ledger.columns.reason'),
      cell: (a) => <span className="break-words">{a.note}</span>,
    },
  ];

  return (
    <Table
      caption={t('ledger.caption')}
      columns={columns}
      rows={adjustments.data?.items}
      rowKey={(a) => String(a.id)}
      {...queryState(adjustments)}
      empty={<EmptyState title={t('ledger.empty.title')} description={t('ledger.empty.description')} />}
      pagination={{
        page,
        pageSize: ADJUSTMENTS_PAGE_SIZE,
        total: adjustments.data?.total ?? 0,
        onPageChange: setPage,
      }}
    />
  );
}
