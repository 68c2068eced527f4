import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/use-formatters';
import { useWorkerHealth } from '../api/get-worker-health';

/**
 * Says so when no worker has beaten in five minutes (issue 21): alerts then wait as Queued, which the
 * console would otherwise show under a green "Live" as if all were well.
 */
export function WorkerDownBanner() {
  const { t } = useTranslation();
  const format = useFormatters();
  const worker = useWorkerHealth().data;
  if (!worker || worker.workers > 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-fg">
      <p className="font-semibold">{t('alerts.workerDown.title')}</p>
      <p className="mt-0.5 text-muted">
        {worker.lastBeatAt
          ? t('alerts.workerDown.since', { at: format.dateTime(worker.lastBeatAt) })
          : t('alerts.workerDown.never')}
      </p>
    </div>
  );
}
