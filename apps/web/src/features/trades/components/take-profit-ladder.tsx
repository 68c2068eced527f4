import { type LadderLevel, type TradeDetail, subtractDecimals } from '@kairos/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { AlertIcon, CheckIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { useSession } from '../../../lib/session-store';
import { useFormatters } from '../../../lib/use-formatters';
import { usePushTakeProfit } from '../api/push-take-profit';
import {
  isPushSuccess,
  type PushOutcome,
  pushFailureOutcome,
  pushMessage,
  pushSuccessOutcome,
} from '../utils/push-outcome';
import type { MarketFigures } from '../hooks/use-market-figures';
import { splitSymbol } from '../utils/trade-figures';
import { EstimateNow } from './open-position-figures';
import { LevelStatusBadge } from './trade-badges';

/** What is left of a level to send at market: its amount less what already filled. */
function remainingOf(level: LadderLevel): string | null {
  return level.amount === null ? null : subtractDecimals(level.amount, level.filled);
}

/** The lowest level before this one that is not filled yet: what it waits for. */
function blockingLevel(ladder: LadderLevel[], level: LadderLevel): LadderLevel | undefined {
  const index = ladder.indexOf(level);
  return ladder.slice(0, index).find((before) => before.status !== 'filled' && before.status !== 'cancelled');
}

/**
 * Spec §2/§8 and DESIGN §6: the take-profit ladder, each level's status, and "Push to market" on the
 * level the server says may be pushed, after a confirmation that says the limit order is cancelled and
 * a market order created.
 */
export function TakeProfitLadder({ detail, figures }: { detail: TradeDetail; figures: MarketFigures }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const userId = useSession((state) => state.user?.id || null);
  const push = usePushTakeProfit();
  const [pushing, setPushing] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<PushOutcome | null>(null);
  const { trade, ladder } = detail;
  const { base, quote } = splitSymbol(trade.symbol);
  const open = trade.status === 'open';

  const pushToMarket = async (level: LadderLevel) => {
    const remaining = remainingOf(level);
    const confirmed = await confirmAction({
      title: t('trades.push.confirmTitle', { name: level.name }),
      message: (
        <>
          {level.price === null
            ? t('trades.push.confirmMessageNoPrice', {
                name: level.name,
                amount: figures.quantity(trade, remaining),
              })
            : t('trades.push.confirmMessage', {
                name: level.name,
                price: figures.price(trade, level.price),
                amount: figures.quantity(trade, remaining),
              })}
          <EstimateNow
            symbol={trade.symbol}
            currentPrice={trade.currentPrice}
            estimate={level.estimatedPushPnl}
          />
        </>
      ),
      confirmLabel: t('trades.push.confirm'),
    });
    if (!confirmed) return;
    setOutcome(null);
    setPushing(level.role);
    push.mutate(
      { tradeId: trade.id, takeProfitRole: level.role, botId: trade.botId, userId },
      {
        onSuccess: (body) => setOutcome(pushSuccessOutcome(body, level.name)),
        onError: (error) => setOutcome(pushFailureOutcome(error, level.name)),
        onSettled: () => setPushing(null),
      },
    );
  };

  const columns: Column<LadderLevel>[] = [
    {
      key: 'level',
      header: t('trades.ladder.columns.level'),
      cell: (level) => (
        <span className="flex items-center gap-2">
          <span className="num font-semibold">{level.name}</span>
          {level.pushed ? (
            <span className="rounded border border-line px-1 text-[10px] tracking-wide text-muted uppercase">
              {t('trades.ladder.pushed')}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'distance',
      header: t('trades.ladder.columns.distance'),
      numeric: true,
      // Phones keep level, price, status and the push button in view.
      className: 'hidden sm:table-cell',
      cell: (level) => format.percent(level.percent),
    },
    {
      key: 'size',
      header: t('trades.ladder.columns.size'),
      numeric: true,
      className: 'hidden sm:table-cell',
      cell: (level) => format.percent(level.sizePercent),
    },
    {
      key: 'price',
      header: t('trades.ladder.columns.price', { quote }),
      numeric: true,
      cell: (level) => figures.price(trade, level.price, { unit: false }),
    },
    {
      key: 'amount',
      header: t('trades.ladder.columns.amount', { base }),
      numeric: true,
      className: 'hidden sm:table-cell',
      cell: (level) => figures.quantity(trade, level.amount, { unit: false }),
    },
    {
      key: 'filled',
      header: t('trades.ladder.columns.filled', { base }),
      numeric: true,
      className: 'hidden sm:table-cell',
      cell: (level) => figures.quantity(trade, level.filled, { unit: false }),
    },
    {
      key: 'status',
      header: t('trades.ladder.columns.status'),
      cell: (level) => <LevelStatusBadge status={level.status} />,
    },
    {
      key: 'action',
      header: <span className="sr-only">{t('trades.ladder.columns.action')}</span>,
      className: 'w-px text-right',
      cell: (level) => {
        if (open && level.pushable)
          return (
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('trades.push.actionFor', { name: level.name })}
              loading={pushing === level.role}
              disabled={pushing !== null && pushing !== level.role}
              onClick={() => void pushToMarket(level)}
            >
              {/* Phones get the short word so the row keeps its button in view. */}
              <span className="sm:hidden">{t('trades.push.short')}</span>
              <span className="hidden sm:inline">{t('trades.push.action')}</span>
            </Button>
          );
        const before = blockingLevel(ladder, level);
        if (open && before && (level.status === 'placed' || level.status === 'partially_filled'))
          return (
            <span className="hidden text-xs text-subtle sm:inline">
              {t('apiMessages.TAKE_PROFIT_NOT_PUSHABLE', { context: 'waiting', previousName: before.name })}
            </span>
          );
        return null;
      },
    },
  ];

  return (
    <Card className="mb-5">
      <CardHeader title={t('trades.ladder.title')} description={t('trades.ladder.description')} />
      <Table
        caption={t('trades.ladder.title')}
        columns={columns}
        rows={ladder}
        rowKey={(level) => level.role}
        flush
        empty={
          <EmptyState
            title={t('trades.ladder.empty.title')}
            description={t(open ? 'trades.ladder.empty.open' : 'trades.ladder.empty.description')}
            className="py-6"
          />
        }
      />
      {outcome ? <PushResult outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
    </Card>
  );
}

/** The push's answer stays under the ladder (the order id is worth reading twice) until dismissed. */
function PushResult({ outcome, onDismiss }: { outcome: PushOutcome; onDismiss: () => void }) {
  const { t } = useTranslation();
  const success = isPushSuccess(outcome);
  return (
    <div
      role={success ? 'status' : 'alert'}
      className={cn(
        'flex items-start gap-2 border-t px-4 py-3 text-sm',
        success ? 'border-gain/30 bg-gain/10' : 'border-loss/30 bg-loss/10',
      )}
    >
      <span className={cn('mt-0.5 shrink-0', success ? 'text-gain' : 'text-loss')}>
        {success ? <CheckIcon /> : <AlertIcon />}
      </span>
      <p className="min-w-0 flex-1 break-words text-fg" data-testid="push-result">
        {pushMessage(t, outcome)}
      </p>
      <button type="button" onClick={onDismiss} className="shrink-0 text-xs text-muted hover:text-fg">
        {t('common.dismiss')}
      </button>
    </div>
  );
}
