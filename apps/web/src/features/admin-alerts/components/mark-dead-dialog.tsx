import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, controlClasses, fieldDescriptionIds } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/form-error';
import { toast } from '../../../components/ui/toast';
import type { AdminAlert } from '../api/get-alerts';
import { useMarkAlertDead } from '../api/mark-alert-dead';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const REASON_MAX = 500;

/** Marking dead needs a reason: it is kept on the alert and in its history. */
export function MarkDeadDialog({ alert, onClose }: { alert: AdminAlert; onClose: () => void }) {
  const { t } = useTranslation();
  const markDead = useMarkAlertDead();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const reasonId = useId();
  const formId = useId();

  const close = () => {
    if (!markDead.isPending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    void singleFlight(() =>
      markDead.mutateAsync({ id: alert.id, reason }).then(() => {
        toast.success(t('alerts.markDead.done'));
        onClose();
      }, ignoreRefusal),
    );
  };
  const error = missing ? t('alerts.markDead.reasonRequired') : undefined;

  return (
    <Dialog
      open
      role="alertdialog"
      onClose={close}
      title={t('alerts.markDead.title')}
      description={t('alerts.markDead.message', { key: alert.strategyKey })}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={markDead.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="danger" loading={markDead.isPending}>
            {t('alerts.actions.markDead')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-3 pb-2">
        <Field
          id={reasonId}
          label={t('alerts.markDead.reason')}
          error={error}
          hint={t('alerts.markDead.hint')}
        >
          <textarea
            id={reasonId}
            data-autofocus
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              if (event.target.value.trim()) setMissing(false);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={fieldDescriptionIds(reasonId, { error, hint: true })}
            className={`${controlClasses} h-auto py-2`}
          />
        </Field>
        {markDead.isError ? <FormError title={t('alerts.markDead.failed')} error={markDead.error} /> : null}
      </form>
    </Dialog>
  );
}
