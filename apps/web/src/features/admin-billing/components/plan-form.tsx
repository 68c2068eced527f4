import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import type { BillingUserDetail } from '../api/get-billing-user';
import { useUpdateBillingPlan } from '../api/update-billing-plan';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const PERCENT = /^\d{1,3}(?:[.,]\d{1,4})?$/;

/** A decimal string the server accepts (`12.5`), or undefined when the text is not a percent from 0 to 100. */
export function parsePlanPercent(text: string): string | undefined {
  const trimmed = text.trim();
  if (!PERCENT.test(trimmed)) return undefined;
  const value = trimmed.replace(',', '.');
  return Number(value) <= 100 ? value : undefined;
}

/** Plan editing (spec §2 AdminUserBillingDetail): percent, active, auto charge. */
export function PlanForm({ detail }: { detail: BillingUserDetail }) {
  const { t } = useTranslation();
  const update = useUpdateBillingPlan();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const plan = detail.plan;
  const [percent, setPercent] = useState(plan ? String(Number(plan.percent)) : '');
  const [active, setActive] = useState(plan?.active ?? true);
  const [autoCharge, setAutoCharge] = useState(plan?.autoCharge ?? false);
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parsePlanPercent(percent);
    if (parsed === undefined) {
      setInvalid(true);
      return;
    }
    void singleFlight(() =>
      update
        .mutateAsync({ userId: detail.userId, percent: parsed, active, autoCharge })
        .then(() => toast.success(plan ? t('billing.plan.saved') : t('billing.plan.created')), ignoreRefusal),
    );
  };

  return (
    <Card>
      <CardHeader
        title={t('billing.plan.title')}
        description={plan ? t('billing.plan.description') : t('billing.plan.none')}
      />
      <CardBody>
        <form
          onSubmit={submit}
          noValidate
          className="grid items-start gap-x-6 gap-y-4 md:grid-cols-2 xl:grid-cols-[12rem_minmax(0,1fr)_minmax(0,1fr)_auto]"
        >
          <Input
            label={t('billing.plan.percent')}
            inputMode="decimal"
            numeric
            suffix="%"
            value={percent}
            onChange={(event) => {
              setPercent(event.target.value);
              setInvalid(false);
            }}
            error={invalid ? t('billing.plan.percentInvalid') : undefined}
            hint={t('billing.plan.percentHint')}
          />
          <div className="xl:pt-6">
            <Toggle
              label={t('billing.columns.active')}
              description={t('billing.plan.activeHint')}
              checked={active}
              onChange={setActive}
            />
          </div>
          <div className="xl:pt-6">
            <Toggle
              label={t('billing.columns.autoCharge')}
              description={t('billing.plan.autoChargeHint')}
              checked={autoCharge}
              onChange={setAutoCharge}
            />
          </div>
          <div className="xl:pt-6">
            <Button type="submit" loading={update.isPending}>
              {plan ? t('billing.plan.save') : t('billing.plan.create')}
            </Button>
          </div>
          {update.isError ? (
            <div className="md:col-span-2 xl:col-span-4">
              <FormError title={t('billing.plan.failed')} error={update.error} />
            </div>
          ) : null}
        </form>
      </CardBody>
    </Card>
  );
}
