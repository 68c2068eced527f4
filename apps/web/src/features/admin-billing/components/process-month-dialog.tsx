import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { type MonthlyProcessResult, type Period, useProcessMonth } from '../api/process-month';
import { previousPeriod } from '../utils/periods';
import { Money, usePeriodLabel } from './billing-labels';
import { MonthPicker } from './month-picker';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-b border-line py-1.5 last:border-b-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="num text-sm font-medium text-fg">{value}</dd>
    </div>
  );
}

/** "Process a month": pick it, confirm in one sentence, then read what was written (spec §2, DESIGN §8). */
export function ProcessMonthDialog({ onClose, now = new Date() }: { onClose: () => void; now?: Date }) {
  const { t } = useTranslation();
  const periodLabel = usePeriodLabel();
  const processMonth = useProcessMonth();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [period, setPeriod] = useState<Period>(() => previousPeriod(now));
  const [step, setStep] = useState<'pick' | 'confirm'>('pick');
  const [result, setResult] = useState<MonthlyProcessResult | null>(null);
  const label = periodLabel(period);

  const close = () => {
    if (!processMonth.isPending) onClose();
  };
  const run = () => singleFlight(() => processMonth.mutateAsync(period).then(setResult, ignoreRefusal));

  if (result) {
    return (
      <Dialog
        open
        onClose={onClose}
        title={t('billing.process.resultTitle', { period: periodLabel(result) })}
        description={
          result.created === 0 ? t('billing.process.nothingNew') : t('billing.process.resultDescription')
        }
        footer={
          <Button variant="primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </Button>
        }
      >
        <dl className="pb-2" aria-label={t('billing.process.summary')}>
          <Figure label={t('billing.process.created')} value={result.created} />
          <Figure label={t('billing.process.unchanged')} value={result.unchanged} />
          <Figure label={t('billing.process.skipped')} value={result.skipped} />
          <Figure
            label={t('billing.process.totalProfit')}
            value={<Money value={result.totalProfit} signed />}
          />
          <Figure label={t('billing.process.totalFees')} value={<Money value={result.totalFees} />} />
          <Figure label={t('billing.process.invoicesCreated')} value={result.invoicesCreated} />
        </dl>
      </Dialog>
    );
  }

  if (step === 'confirm') {
    return (
      <Dialog
        open
        role="alertdialog"
        onClose={close}
        title={t('billing.process.confirmTitle', { period: label })}
        description={t('billing.process.confirmMessage', { period: label })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setStep('pick')} disabled={processMonth.isPending}>
              {t('common.back')}
            </Button>
            <Button variant="primary" onClick={run} loading={processMonth.isPending} data-autofocus>
              {t('billing.process.confirm', { period: label })}
            </Button>
          </>
        }
      >
        {processMonth.isError ? (
          <div className="pb-2">
            <FormError title={t('billing.process.failed')} error={processMonth.error} />
          </div>
        ) : null}
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onClose={close}
      title={t('billing.process.title')}
      description={t('billing.process.description')}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button variant="primary" onClick={() => setStep('confirm')}>
            {t('billing.process.continue')}
          </Button>
        </>
      }
    >
      <div className="pb-2">
        <MonthPicker value={period} onChange={setPeriod} now={now} />
      </div>
    </Dialog>
  );
}
