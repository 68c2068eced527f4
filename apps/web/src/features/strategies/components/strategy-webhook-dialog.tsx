import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { RefreshIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { cn } from '../../../lib/cn';
import type { Strategy } from '../api/get-strategies';
import { useRotateWebhookSecret } from '../api/update-strategy';
import { CopyButton } from './copy-button';

export const ALERT_ACTIONS = ['long', 'short', 'exit', 'strategy'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

/**
 * The TradingView alert message, ready to paste. `strategy` uses TradingView's own placeholder
 * (buy/sell from a Pine strategy); `{{timenow}}` lets the server refuse stale signals.
 */
export function alertMessage(
  strategy: Pick<Strategy, 'strategyKey' | 'tradeCurrency' | 'stableCoin'>,
  secret: string,
  action: AlertAction,
): string {
  return JSON.stringify(
    {
      strategyKey: strategy.strategyKey,
      secret,
      action: action === 'strategy' ? '{{strategy.order.action}}' : action,
      symbol: `${strategy.tradeCurrency}/${strategy.stableCoin}`,
      timestamp: '{{timenow}}',
    },
    null,
    2,
  );
}

/** Where TradingView sends the alerts of one strategy, with the secret and the message to paste. */
export function StrategyWebhookDialog({ strategy, onClose }: { strategy: Strategy; onClose: () => void }) {
  const { t } = useTranslation();
  const rotate = useRotateWebhookSecret();
  const [revealed, setRevealed] = useState(false);
  const [action, setAction] = useState<AlertAction>('long');
  const secret = strategy.webhookSecret ?? '';
  const message = alertMessage(strategy, secret, action);
  const actionGroupId = useId();

  const rotateSecret = async () => {
    const confirmed = await confirmAction({
      title: t('strategies.webhook.rotateTitle'),
      message: t('strategies.webhook.rotateMessage', { name: strategy.nickname }),
      confirmLabel: t('strategies.webhook.rotate'),
      tone: 'danger',
    });
    if (!confirmed) return;
    rotate.mutate(strategy.id, {
      onSuccess: () => {
        setRevealed(true);
        toast.success(t('strategies.webhook.rotated'));
      },
      onError: (error) =>
        toast.error(t('strategies.webhook.rotateFailed'), { description: errorMessage(t, error) }),
    });
  };

  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={t('strategies.webhook.title', { name: strategy.nickname })}
      description={t('strategies.webhook.description')}
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <div className="flex flex-col gap-5 py-2">
        <section className="flex flex-col gap-1.5">
          <h3 className="text-xs font-medium text-muted">{t('strategies.webhook.url')}</h3>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md border border-line bg-surface-2 px-3 py-2 font-mono text-xs text-fg">
              {strategy.webhookUrl}
            </code>
            <CopyButton value={strategy.webhookUrl} label={t('strategies.webhook.copyUrl')} />
          </div>
        </section>

        {strategy.isOwner ? (
          <section className="flex flex-col gap-1.5">
            <h3 className="text-xs font-medium text-muted">{t('strategies.webhook.secret')}</h3>
            <div className="flex flex-wrap items-center gap-2">
              <code
                data-testid="webhook-secret"
                className="min-w-0 flex-1 truncate rounded-md border border-line bg-surface-2 px-3 py-2 font-mono text-xs text-fg"
              >
                {revealed ? secret : '•'.repeat(Math.min(32, secret.length || 16))}
              </code>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setRevealed(!revealed)}
                aria-pressed={revealed}
              >
                {revealed ? t('strategies.webhook.hide') : t('strategies.webhook.show')}
              </Button>
              <CopyButton value={secret} label={t('strategies.webhook.copySecret')} />
              <Button
                variant="ghost"
                size="sm"
                className="hover:text-loss"
                icon={<RefreshIcon size={14} />}
                loading={rotate.isPending}
                onClick={() => void rotateSecret()}
              >
                {t('strategies.webhook.rotate')}
              </Button>
            </div>
            <p className="text-xs text-subtle">{t('strategies.webhook.secretHint')}</p>
          </section>
        ) : (
          <p className="rounded-md border border-line bg-surface-2 px-3 py-2 text-sm text-muted">
            {t('strategies.webhook.notOwner')}
          </p>
        )}

        {strategy.isOwner ? (
          <section className="flex flex-col gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={actionGroupId} className="text-xs font-medium text-muted">
                {t('strategies.webhook.message')}
              </h3>
              <div
                role="radiogroup"
                aria-labelledby={actionGroupId}
                className="flex gap-1 rounded-md border border-line bg-surface-2 p-0.5"
              >
                {ALERT_ACTIONS.map((option) => (
                  <button
                    key={option}
                    type="button"
                    role="radio"
                    aria-checked={action === option}
                    onClick={() => setAction(option)}
                    className={cn(
                      'rounded px-2 py-1 text-xs transition-colors',
                      action === option ? 'bg-surface-3 font-medium text-fg' : 'text-muted hover:text-fg',
                    )}
                  >
                    {t(`strategies.webhook.actions.${option}`)}
                  </button>
                ))}
              </div>
            </div>
            <pre
              data-testid="alert-message"
              className="overflow-x-auto rounded-md border border-line bg-surface-2 px-3 py-2 font-mono text-xs leading-relaxed text-fg"
            >
              {revealed ? message : alertMessage(strategy, '••••••••', action)}
            </pre>
            <div className="flex items-center justify-between gap-2">
              <p className="text-xs text-subtle">{t(`strategies.webhook.actionHints.${action}`)}</p>
              <CopyButton value={message} label={t('strategies.webhook.copyMessage')} />
            </div>
          </section>
        ) : null}

        <section className="flex flex-col gap-1.5 rounded-md border border-line bg-surface-2 px-3 py-2">
          <h3 className="text-xs font-medium text-muted">{t('strategies.webhook.howTo')}</h3>
          <ol className="list-decimal space-y-1 pl-5 text-sm text-fg">
            <li>{t('strategies.webhook.step1')}</li>
            <li>{t('strategies.webhook.step2')}</li>
            <li>{t('strategies.webhook.step3')}</li>
          </ol>
        </section>
      </div>
    </Dialog>
  );
}
