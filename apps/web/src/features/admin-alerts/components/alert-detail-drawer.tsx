import type { ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import { SkeletonText } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { StatusBadge } from '../../../components/ui/status-badge';
import { useTranslateMessage } from '../../../i18n/translate-message';
import { formatPrice } from '../../../lib/money';
import { useFormatters } from '../../../lib/use-formatters';
import { type AdminAlertDetail, useAlert } from '../api/get-alert';
import { attemptsFromHistory } from './alert-attempts';
import { AlertActionLabel, OutcomeBadge, useActorLabel } from './alert-labels';
import type { AlertActions } from './use-alert-actions';

function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-subtle">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-fg">{children}</dd>
    </div>
  );
}

function Nothing({ children }: { children: ReactNode }) {
  return <p className="text-sm text-subtle">{children}</p>;
}

/**
 * One alert in full (spec §2 "Admin alerts"): payload, attempts, per-bot outcomes, errors and
 * history. A side panel, not a modal: the table stays usable and another row opens in its place.
 */
export function AlertDetailDrawer({
  alertId,
  onClose,
  actions,
}: {
  alertId: string;
  onClose: () => void;
  actions: AlertActions;
}) {
  const { t } = useTranslation();
  const alert = useAlert(alertId);
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    panelRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened from the panel (mark dead, confirm) takes its own Escape.
      if (event.key !== 'Escape' || document.querySelector('[aria-modal="true"]')) return;
      onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [alertId]);

  let body: ReactNode;
  if (alert.isPending) body = <SkeletonText lines={8} />;
  else if (alert.isError) body = <ErrorState error={alert.error} onRetry={() => void alert.refetch()} />;
  else body = <AlertDetailBody alert={alert.data} actions={actions} />;

  return createPortal(
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-xl flex-col border-l border-line-strong bg-surface shadow-2xl focus-visible:outline-none"
    >
      <header className="flex items-start justify-between gap-3 border-b border-line px-5 py-4">
        <div className="min-w-0">
          <h2 id={titleId} className="flex items-center gap-2 text-base font-semibold text-fg">
            {t('alerts.detail.title')}
            {alert.data ? <StatusBadge status={alert.data.status} /> : null}
          </h2>
          <p className="mt-0.5 truncate font-mono text-xs text-subtle">{alertId}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('alerts.detail.close')}
          className="-mr-1 rounded p-1 text-subtle hover:bg-surface-3 hover:text-fg"
        >
          <CloseIcon />
        </button>
      </header>
      <div className="flex flex-1 flex-col gap-6 overflow-y-auto px-5 py-4">{body}</div>
    </aside>,
    document.body,
  );
}

function AlertDetailBody({ alert, actions }: { alert: AdminAlertDetail; actions: AlertActions }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const actorLabel = useActorLabel();
  const translate = useTranslateMessage();
  const attempts = attemptsFromHistory(alert.history);

  return (
    <>
      {alert.canMarkDead || alert.canResume ? (
        <div className="flex flex-wrap gap-2">
          {alert.canMarkDead ? (
            <Button variant="danger" size="sm" onClick={() => actions.markDead(alert)}>
              {t('alerts.actions.markDead')}
            </Button>
          ) : null}
          {alert.canResume ? (
            <Button
              variant="primary"
              size="sm"
              loading={actions.resumingId === alert.id}
              onClick={() => void actions.resume(alert)}
            >
              {t('alerts.actions.resume')}
            </Button>
          ) : null}
        </div>
      ) : null}

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        <Fact label={t('alerts.columns.strategyKey')}>
          <span className="font-mono text-xs">{alert.strategyKey}</span>
        </Fact>
        <Fact label={t('alerts.columns.action')}>
          <AlertActionLabel action={alert.action} />
        </Fact>
        <Fact label={t('alerts.columns.symbol')}>{alert.symbol || '—'}</Fact>
        <Fact label={t('alerts.detail.price')}>
          <span className="num">
            {alert.price === null
              ? t('alerts.detail.market')
              : formatPrice(alert.price, alert.symbol.split('/')[1]?.split(':')[0] ?? '', {
                  locale: format.locale,
                })}
          </span>
        </Fact>
        <Fact label={t('alerts.columns.received')}>
          <span className="num">{format.dateTime(alert.receivedAt)}</span>
        </Fact>
        <Fact label={t('alerts.detail.signalAt')}>
          <span className="num">{format.dateTime(alert.signalAt)}</span>
        </Fact>
        <Fact label={t('alerts.detail.finishedAt')}>
          <span className="num">{format.dateTime(alert.finishedAt)}</span>
        </Fact>
        <Fact label={t('alerts.columns.attempts')}>
          <span className="num">
            {t('alerts.attemptsOf', { attempts: alert.attempts, max: alert.maxAttempts })}
          </span>
        </Fact>
        {alert.status === 'queued' ? (
          <Fact label={t('alerts.detail.nextAttemptAt')}>
            <span className="num">{format.dateTime(alert.nextAttemptAt)}</span>
          </Fact>
        ) : null}
      </dl>

      {alert.deadReason ? (
        <p className="rounded-md border border-loss/30 bg-loss/10 px-3 py-2 text-sm text-fg">
          <span className="font-medium text-loss">{t('alerts.detail.deadReason')}</span> {alert.deadReason}
        </p>
      ) : null}

      <Section title={t('alerts.detail.payload')}>
        <pre className="overflow-x-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs text-fg">
          {JSON.stringify(alert.payload, null, 2)}
        </pre>
      </Section>

      <Section title={t('alerts.detail.attempts')}>
        {attempts.length === 0 ? (
          <Nothing>{t('alerts.detail.noAttempts')}</Nothing>
        ) : (
          <ol className="flex flex-col divide-y divide-line rounded-md border border-line">
            {attempts.map((attempt) => (
              <li key={attempt.number} className="flex flex-col gap-1 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-fg">
                    {t('alerts.detail.attempt', { number: attempt.number })}
                  </span>
                  {attempt.result ? (
                    <StatusBadge status={attempt.result} />
                  ) : (
                    <StatusBadge status="in_progress" />
                  )}
                </div>
                <span className="num text-xs text-muted">
                  {format.dateTime(attempt.startedAt)} · {actorLabel(attempt.actor)}
                </span>
                {attempt.error ? (
                  <span className="text-xs break-words text-loss">{translate(attempt.error)}</span>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section title={t('alerts.detail.botOutcomes')}>
        {alert.botOutcomes.length === 0 ? (
          <Nothing>{t('alerts.detail.noOutcomes')}</Nothing>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {alert.botOutcomes.map((outcome) => (
              <li key={outcome.botId} className="flex flex-col gap-1 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 truncate">
                    <span className="font-medium text-fg">{outcome.botNickname ?? outcome.botId}</span>
                    {outcome.userEmail ? <span className="text-muted"> · {outcome.userEmail}</span> : null}
                  </span>
                  <OutcomeBadge status={outcome.status} />
                </div>
                <span className="text-xs break-words text-muted">{translate(outcome.message)}</span>
                <span className="num text-xs text-subtle">
                  {format.dateTime(outcome.at)}
                  {outcome.retryable ? ` · ${t('alerts.detail.retryable')}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t('alerts.detail.errors')}>
        {alert.errors.length === 0 ? (
          <Nothing>{t('alerts.detail.noErrors')}</Nothing>
        ) : (
          <ul className="flex flex-col gap-2">
            {alert.errors.map((error, index) => (
              <li
                key={`${error.at}-${index}`}
                className="rounded-md border border-loss/30 bg-loss/10 px-3 py-2"
              >
                <p className="text-sm break-words text-fg">{translate(error.message)}</p>
                <p className="num mt-0.5 text-xs text-muted">
                  {format.dateTime(error.at)} ·{' '}
                  {error.source.startsWith('bot ') ? error.source : actorLabel(error.source)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t('alerts.detail.history')}>
        <ol className="flex flex-col gap-2 border-l border-line-strong pl-4">
          {alert.history.map((event, index) => (
            <li key={`${event.at}-${index}`} className="relative text-sm">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[21px] size-2 rounded-full border border-line-strong bg-surface-3"
              />
              <div className="flex flex-wrap items-center gap-1.5">
                {event.fromStatus ? (
                  <>
                    <StatusBadge status={event.fromStatus} />
                    <span aria-label={t('alerts.detail.to')} className="text-subtle">
                      →
                    </span>
                  </>
                ) : null}
                <StatusBadge status={event.toStatus} />
              </div>
              <p className="num mt-1 text-xs text-muted">
                {format.dateTime(event.at)} · {actorLabel(event.actor)}
              </p>
              {event.note ? <p className="mt-0.5 text-xs break-words text-fg">{event.note}</p> : null}
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}
