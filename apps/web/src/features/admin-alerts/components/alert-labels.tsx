import type { AdminAlertDetail } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '../../../components/ui/status-badge';
import type { AdminAlert } from '../api/get-alerts';

type OutcomeStatus = AdminAlertDetail['botOutcomes'][number]['status'];

const OUTCOME_STYLES: Record<OutcomeStatus, { tone: Tone; glyph: string }> = {
  opened: { tone: 'success', glyph: '↗' },
  closed: { tone: 'success', glyph: '↘' },
  reversed: { tone: 'success', glyph: '⇄' },
  skipped: { tone: 'neutral', glyph: '–' },
  failed: { tone: 'danger', glyph: '!' },
};

const OUTCOME_ORDER: OutcomeStatus[] = ['opened', 'closed', 'reversed', 'skipped', 'failed'];

/** What one bot did with the alert. */
export function OutcomeBadge({ status }: { status: OutcomeStatus }) {
  const { t } = useTranslation();
  const style = OUTCOME_STYLES[status];
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`alerts.outcome.${status}`)}
    </Badge>
  );
}

/** "2 opened · 1 failed": what the bots did, in a line. */
export function OutcomeCounts({ outcomes }: { outcomes: AdminAlert['outcomes'] }) {
  const { t } = useTranslation();
  if (outcomes.total === 0) return <span className="text-subtle">{t('alerts.outcome.none')}</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      {OUTCOME_ORDER.filter((status) => outcomes[status] > 0).map((status) => (
        <span
          key={status}
          className={status === 'failed' ? 'text-loss' : status === 'skipped' ? 'text-muted' : 'text-fg'}
        >
          <span className="num">{outcomes[status]}</span> {t(`alerts.outcome.${status}`).toLowerCase()}
        </span>
      ))}
    </span>
  );
}

/** long / short / exit, with the arrow the trade tables use. */
export function AlertActionLabel({ action }: { action: AdminAlert['action'] }) {
  const { t } = useTranslation();
  const glyph = action === 'long' ? '▲' : action === 'short' ? '▼' : '■';
  const tone = action === 'long' ? 'text-gain' : action === 'short' ? 'text-loss' : 'text-muted';
  return (
    <span className="inline-flex items-center gap-1">
      <span aria-hidden="true" className={`text-[0.75em] ${tone}`}>
        {glyph}
      </span>
      {t(`alerts.signal.${action}`)}
    </span>
  );
}

/** Who moved the alert: `webhook`, `worker:<id>`, `system` or `admin:<userId>`. */
export function useActorLabel() {
  const { t } = useTranslation();
  return (actor: string): string => {
    const [kind = '', ...rest] = actor.split(':');
    const who = rest.join(':');
    if (kind === 'webhook') return t('alerts.actor.webhook');
    if (kind === 'system') return t('alerts.actor.system');
    if (kind === 'worker') return t('alerts.actor.worker', { id: who });
    if (kind === 'admin') return t('alerts.actor.admin');
    return actor;
  };
}
