import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import type { AdminAlert } from '../api/get-alerts';
import { useResumeAlert } from '../api/resume-alert';
import { MarkDeadDialog } from './mark-dead-dialog';

export interface AlertActions {
  /** Opens the reason dialog. */
  markDead: (alert: AdminAlert) => void;
  /** Asks, then puts the alert back in the queue; a refusal shows the server's message. */
  resume: (alert: AdminAlert) => Promise<void>;
  /** The alert whose resume is on its way, if any. */
  resumingId: string | undefined;
  /** The reason dialog, to render once. */
  dialog: ReactNode;
}

/** The two admin moves of spec §2 "Admin alerts", shared by the table and the detail drawer. */
export function useAlertActions(): AlertActions {
  const { t } = useTranslation();
  const [marking, setMarking] = useState<AdminAlert | null>(null);
  const resume = useResumeAlert();

  return {
    markDead: setMarking,
    resume: async (alert) => {
      const confirmed = await confirmAction({
        title: t('alerts.resume.title'),
        message: t('alerts.resume.message'),
        confirmLabel: t('alerts.actions.resume'),
      });
      if (!confirmed) return;
      await resume
        .mutateAsync(alert.id)
        .then(() => toast.success(t('alerts.resume.done')))
        .catch((error: unknown) =>
          toast.error(t('alerts.resume.failed'), { description: errorMessage(t, error) }),
        );
    },
    resumingId: resume.isPending ? resume.variables : undefined,
    dialog: marking ? <MarkDeadDialog alert={marking} onClose={() => setMarking(null)} /> : null,
  };
}
