import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { useFormatters } from '../../../lib/use-formatters';
import { useCreateInvoice } from '../api/create-invoice';
import type { BillingRecord, Invoice } from '../api/get-billing-user';
import { usePayInvoice } from '../api/pay-invoice';
import { useVoidInvoice } from '../api/void-invoice';
import { InvoiceStatusBadge, Money, useDateLabel, usePeriodLabel } from './billing-labels';
import { formatMoney } from '../../../lib/money';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

/** Pay and void are offered while an invoice is draft or open (the server refuses them after). */
export function isInvoiceUnsettled(invoice: Invoice): boolean {
  return invoice.status === 'draft' || invoice.status === 'open';
}

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-line py-1.5 last:border-b-0">
      <dt className="shrink-0 text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-right text-sm break-words text-fg">{children}</dd>
    </div>
  );
}

/** One invoice, opened from the tables or a link (`?invoice=<id>`), with its actions. */
export function InvoiceDialog({
  invoice,
  onClose,
  onPay,
  onVoid,
}: {
  invoice: Invoice;
  onClose: () => void;
  onPay: () => void;
  onVoid: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const periodLabel = usePeriodLabel();
  const dateLabel = useDateLabel();
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('billing.invoice.title', { number: invoice.number })}
      description={t('billing.invoice.description', {
        period: periodLabel(invoice),
        email: invoice.userEmail,
      })}
      footer={
        <>
          {isInvoiceUnsettled(invoice) ? (
            <Button variant="ghost" onClick={onVoid} className="mr-auto">
              {t('billing.invoice.void')}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
          {isInvoiceUnsettled(invoice) ? (
            <Button variant="primary" onClick={onPay}>
              {t('billing.invoice.pay')}
            </Button>
          ) : null}
        </>
      }
    >
      <dl className="pb-2">
        <Row label={t('billing.invoices.status')}>
          <InvoiceStatusBadge status={invoice.status} />
        </Row>
        <Row label={t('billing.invoices.amount')}>
          <Money value={invoice.amount} currency={invoice.currency} className="font-semibold" />
        </Row>
        <Row label={t('billing.invoices.period')}>{periodLabel(invoice, { start: true })}</Row>
        <Row label={t('billing.invoices.issuedAt')}>
          <span className="num">{format.dateTime(invoice.issuedAt)}</span>
        </Row>
        <Row label={t('billing.invoices.dueDate')}>
          <span className="num">{dateLabel(invoice.dueDate)}</span>
        </Row>
        {invoice.paidAt ? (
          <Row label={t('billing.invoices.paidAt')}>
            <span className="num">{format.dateTime(invoice.paidAt)}</span>
          </Row>
        ) : null}
        {invoice.voidedAt ? (
          <Row label={t('billing.invoices.voidedAt')}>
            <span className="num">{format.dateTime(invoice.voidedAt)}</span>
          </Row>
        ) : null}
        {invoice.voidReason ? <Row label={t('billing.invoice.voidReason')}>{invoice.voidReason}</Row> : null}
        <Row label={t('billing.invoice.provider')}>{invoice.provider}</Row>
        {invoice.providerReference ? (
          <Row label={t('billing.invoice.reference')}>
            <span className="font-mono text-xs">{invoice.providerReference}</span>
          </Row>
        ) : null}
      </dl>
    </Dialog>
  );
}

/** Records a payment received outside any provider: moves money in the books, so it asks first. */
export function PayInvoiceDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const pay = usePayInvoice();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [reference, setReference] = useState('');
  const formId = useId();
  const close = () => {
    if (!pay.isPending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void singleFlight(() =>
      pay.mutateAsync({ id: invoice.id, reference }).then((paid) => {
        toast.success(t('billing.invoice.paid', { number: paid.number }));
        onClose();
      }, ignoreRefusal),
    );
  };
  return (
    <Dialog
      open
      role="alertdialog"
      onClose={close}
      title={t('billing.invoice.payTitle', { number: invoice.number })}
      description={t('billing.invoice.payMessage', {
        amount: formatMoney(invoice.amount, invoice.currency, { locale: format.locale }),
        email: invoice.userEmail,
      })}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={pay.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={pay.isPending}>
            {t('billing.invoice.pay')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-3 pb-2">
        <Input
          label={t('billing.invoice.reference')}
          hint={t('billing.invoice.referenceHint')}
          value={reference}
          maxLength={200}
          onChange={(event) => setReference(event.target.value)}
          data-autofocus
        />
        {pay.isError ? <FormError title={t('billing.invoice.payFailed')} error={pay.error} /> : null}
      </form>
    </Dialog>
  );
}

/** Voids an unpaid invoice; its month is due again. A reason is required and kept. */
export function VoidInvoiceDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const voidInvoice = useVoidInvoice();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const formId = useId();
  const close = () => {
    if (!voidInvoice.isPending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    void singleFlight(() =>
      voidInvoice.mutateAsync({ id: invoice.id, reason }).then((voided) => {
        toast.success(t('billing.invoice.voided', { number: voided.number }));
        onClose();
      }, ignoreRefusal),
    );
  };
  return (
    <Dialog
      open
      role="alertdialog"
      onClose={close}
      title={t('billing.invoice.voidTitle', { number: invoice.number })}
      description={t('billing.invoice.voidMessage')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={voidInvoice.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="danger" loading={voidInvoice.isPending}>
            {t('billing.invoice.void')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-3 pb-2">
        <Input
          label={t('billing.invoice.voidReason')}
          value={reason}
          maxLength={500}
          onChange={(event) => {
            setReason(event.target.value);
            if (event.target.value.trim()) setMissing(false);
          }}
          error={missing ? t('billing.invoice.voidReasonRequired') : undefined}
          data-autofocus
        />
        {voidInvoice.isError ? (
          <FormError title={t('billing.invoice.voidFailed')} error={voidInvoice.error} />
        ) : null}
      </form>
    </Dialog>
  );
}

/** Months processed with a fee and no live invoice yet: what "create invoice" can bill. */
export function invoiceableRecords(records: BillingRecord[]): BillingRecord[] {
  return records.filter((record) => record.status === 'pending');
}

/** Creates the invoice of one processed month; opens it once made. */
export function CreateInvoiceDialog({
  userId,
  records,
  onClose,
  onCreated,
}: {
  userId: string;
  records: BillingRecord[];
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
}) {
  const { t } = useTranslation();
  const periodLabel = usePeriodLabel();
  const format = useFormatters();
  const create = useCreateInvoice();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [recordId, setRecordId] = useState(records[0]?.id ?? '');
  const record = records.find((candidate) => candidate.id === recordId);
  const formId = useId();
  const close = () => {
    if (!create.isPending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!record) return;
    void singleFlight(() =>
      create.mutateAsync({ userId, year: record.year, month: record.month }).then(({ invoice, created }) => {
        toast.success(
          t(created ? 'billing.invoice.created' : 'billing.invoice.exists', { number: invoice.number }),
        );
        onCreated(invoice);
      }, ignoreRefusal),
    );
  };
  return (
    <Dialog
      open
      onClose={close}
      size="sm"
      title={t('billing.invoice.createTitle')}
      description={t('billing.invoice.createDescription')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={create.isPending} disabled={!record}>
            {t('billing.invoice.create')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-3 pb-2">
        <Select
          label={t('billing.invoices.period')}
          value={recordId}
          onChange={(event) => setRecordId(event.target.value)}
          options={records.map((candidate) => ({
            value: candidate.id,
            label: `${periodLabel(candidate, { start: true })} · ${formatMoney(candidate.fee, 'USDT', { locale: format.locale })}`,
          }))}
        />
        {create.isError ? <FormError title={t('billing.invoice.createFailed')} error={create.error} /> : null}
      </form>
    </Dialog>
  );
}
