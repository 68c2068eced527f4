import { type QuotaSettings } from '@kairos/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { useQuotas, useSaveQuotas } from '../api/quotas';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const FIELDS = ['maxStrategies', 'maxTradingAccounts', 'maxBots', 'maxEventStreams'] as const;
const MAX_CAP = 100_000;

/** A whole number from 1 to 100,000, or undefined. */
export function parseCap(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_CAP ? value : undefined;
}

/** Admin → Limits (issue 20): what one user may hold at once; admins are not capped. */
export function QuotaSettingsPanel() {
  const quotas = useQuotas();
  if (quotas.isPending) return <LoadingState />;
  if (quotas.isError) return <ErrorState error={quotas.error} onRetry={() => void quotas.refetch()} />;
  return <QuotaForm current={quotas.data} key={JSON.stringify(quotas.data)} />;
}

function QuotaForm({ current }: { current: QuotaSettings }) {
  const { t } = useTranslation();
  const save = useSaveQuotas();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [texts, setTexts] = useState(
    () =>
      Object.fromEntries(FIELDS.map((f) => [f, String(current[f])])) as Record<keyof QuotaSettings, string>,
  );
  const [invalid, setInvalid] = useState<Set<keyof QuotaSettings>>(new Set());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FIELDS.map((f) => [f, parseCap(texts[f])] as const);
    const wrong = new Set(parsed.filter(([, v]) => v === undefined).map(([f]) => f));
    setInvalid(wrong);
    if (wrong.size > 0) return;
    void singleFlight(() =>
      save
        .mutateAsync(Object.fromEntries(parsed) as QuotaSettings)
        .then(() => toast.success(t('limits.saved')), ignoreRefusal),
    );
  };

  return (
    <Card>
      <CardHeader title={t('limits.perUser')} description={t('limits.perUserHint')} />
      <CardBody>
        <form onSubmit={submit} noValidate className="grid items-start gap-x-6 gap-y-4 sm:grid-cols-2">
          {FIELDS.map((field) => (
            <Input
              key={field}
              label={t(`limits.fields.${field}`)}
              hint={t(`limits.hints.${field}`)}
              inputMode="numeric"
              numeric
              value={texts[field]}
              onChange={(e) => {
                setTexts((all) => ({ ...all, [field]: e.target.value }));
                setInvalid((all) => new Set([...all].filter((f) => f !== field)));
              }}
              error={invalid.has(field) ? t('limits.invalid') : undefined}
            />
          ))}
          <div className="sm:col-span-2">
            <Button type="submit" loading={save.isPending}>
              {t('limits.save')}
            </Button>
          </div>
          {save.isError ? (
            <div className="sm:col-span-2">
              <FormError title={t('limits.failed')} error={save.error} />
            </div>
          ) : null}
        </form>
      </CardBody>
    </Card>
  );
}
