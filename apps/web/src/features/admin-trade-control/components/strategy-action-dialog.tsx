import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Input } from '../../../components/ui/input';
import { PnlText } from '../../../components/ui/pnl-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { useMoney } from '../../../lib/money';
import type { TradeControlStatus } from '../api/get-strategy-trade-status';
import type { TradeControlAction } from '../api/run-trade-control-action';
import { type TradeControlScope, useTradeControlScope } from '../api/strategy-scope';

/**
 * The confirmation of a strategy-wide action (issue 21): what it reaches now — users, trades, what they hold
 * at the last price and the estimated result — and the strategy's name typed out before it can run.
 */
export function StrategyActionDialog({
  action,
  status,
  onConfirm,
  onClose,
}: {
  action: TradeControlAction;
  status: TradeControlStatus;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { strategy } = status;
  const name = strategy.nickname || strategy.strategyKey;
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === name.trim();

  return (
    <ConfirmDialog
      open
      tone="danger"
      onCancel={onClose}
      onConfirm={onConfirm}
      confirmDisabled={!matches}
      title={t(`tradeControl.actions.${action}.title`, { name })}
      message={t(`tradeControl.actions.${action}.message`)}
      confirmLabel={t(`tradeControl.actions.${action}.confirm`)}
    >
      <div className="flex flex-col gap-4 py-1">
        {action === 'cancel-orders' ? (
          <ScopeFigures
            rows={[
              [t('tradeControl.scope.orders'), strategy.figures.openOrders],
              [
                t('tradeControl.scope.botsWithTrades'),
                status.bots.filter((bot) => bot.trade !== null).length,
              ],
            ]}
          />
        ) : (
          <PricedScope strategyId={strategy.id} action={action} />
        )}
        <Input
          label={t('tradeControl.typeName', { name })}
          hint={t('tradeControl.typeNameHint')}
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}

function ScopeFigures({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="num text-right text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PricedScope({ strategyId, action }: { strategyId: string; action: TradeControlScope['action'] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const scope = useTradeControlScope(strategyId, action);
  if (scope.isPending)
    return (
      <div role="status" aria-label={t('tradeControl.scope.loading')}>
        <Skeleton className="h-20 rounded-md" />
      </div>
    );
  if (scope.isError) return <ErrorState error={scope.error} onRetry={() => void scope.refetch()} />;
  const s = scope.data;
  return (
    <section aria-label={t('tradeControl.scope.title')} className="flex flex-col gap-2">
      <ScopeFigures
        rows={[
          [t('tradeControl.scope.users'), s.users],
          [t('tradeControl.scope.trades'), s.trades],
          ...s.totals.flatMap((total): [string, ReactNode][] => [
            [t('tradeControl.scope.notional'), money.money(total.notional, total.currency)],
            [
              t('tradeControl.scope.estimatedPnl'),
              <PnlText
                key={total.currency}
                value={total.estimatedPnl}
                kind="money"
                currency={total.currency}
              />,
            ],
          ]),
        ]}
      />
      {s.trades === 0 ? <p className="text-xs text-muted">{t('tradeControl.scope.nothing')}</p> : null}
      {s.unpriced > 0 ? (
        <p className="text-xs text-warn">{t('tradeControl.scope.unpriced', { count: s.unpriced })}</p>
      ) : null}
      {s.totals.length > 0 ? (
        <p className="text-xs text-subtle">{t('tradeControl.scope.estimateNote')}</p>
      ) : null}
    </section>
  );
}
