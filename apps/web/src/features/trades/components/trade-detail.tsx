import type { TradeDetail as TradeDetailData } from '@kairos/contract';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { PnlText } from '../../../components/ui/pnl-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../i18n/translate-message';
import { ApiError } from '../../../lib/api-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useCompleteTrade } from '../api/complete-trade';
import { useDeleteTrade } from '../api/delete-trade';
import { useTrade } from '../api/get-trade';
import {
  formatDuration,
  isAwaitingEntry,
  isFinished,
  splitSymbol,
  tradeDurationMs,
} from '../utils/trade-figures';
import { StopLossDialog } from './stop-loss-dialog';
import { StopProtection } from './stop-protection';
import { EstimateNow, UnrealisedPercents } from './open-position-figures';
import { TakeProfitLadder } from './take-profit-ladder';
import { SideText, SignedValue, TradeStatusBadge } from './trade-badges';
import { TradeTimeline } from './trade-timeline';
import { closeReasonText, tradeNote } from '../utils/trade-note';
import { formatMoneyNumber } from '../../../lib/money';
import { type MarketFigures, useMarketFigures } from '../hooks/use-market-figures';

export interface TradeDetailProps {
  tradeId: string;
  /** Names the route knows from other features (the trades feature only has ids). */
  accountName?: (accountId: string) => string | undefined;
  /** The display name of the account's exchange ("Binance", "Paper"): where a stop resting on the venue rests. */
  venueName?: (accountId: string) => string | undefined;
  /** Whether the trade's account is a testnet or demo-trading one (its figures are not real funds). */
  isTestnetAccount?: (accountId: string) => boolean;
  botName?: (botId: string) => string | undefined;
}

/**
 * Spec §2 TradeDetail: the trade's figures, its take-profit ladder with push to market, the stop-loss,
 * close now and delete, and the orders and fills timeline.
 */
export function TradeDetail({
  tradeId,
  accountName,
  venueName,
  isTestnetAccount,
  botName,
}: TradeDetailProps) {
  const { t } = useTranslation();
  const remove = useDeleteTrade();
  // Once the trade is being deleted this screen stops asking about it (the server would say 404).
  const leaving = remove.isPending || remove.isSuccess;
  const query = useTrade(tradeId, { enabled: !leaving });
  const detail = query.data;
  const figures = useMarketFigures(detail ? [detail.trade] : undefined);

  const back = (
    <Link
      to={detail?.trade.botId ? paths.bot(detail.trade.botId) : paths.trading}
      className="text-sm text-muted hover:text-fg"
    >
      ←{' '}
      {detail?.trade.botId
        ? t('trades.detail.backToBot', { name: botName?.(detail.trade.botId) ?? t('trades.detail.bot') })
        : t('trades.detail.backToTrading')}
    </Link>
  );

  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <>
        <div className="mb-3">{back}</div>
        <PageHeader title={t('trades.detail.heading')} />
        <Card>
          <ErrorState
            title={missing ? t('apiMessages.NOT_FOUND', { context: 'trade' }) : undefined}
            error={missing ? undefined : errorMessage(t, query.error)}
            onRetry={missing ? undefined : () => void query.refetch()}
          />
        </Card>
      </>
    );
  }

  if (!detail) {
    return (
      <div role="status" aria-label={t('common.loading')}>
        <div className="mb-3">{back}</div>
        <div className="mb-5 flex flex-col gap-2">
          <Skeleton className="h-7 w-56" />
          <Skeleton className="h-4 w-72" />
        </div>
        <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} className="h-[68px] rounded-lg" />
          ))}
        </div>
        <Skeleton className="mb-5 h-40 rounded-lg" />
        <Skeleton className="h-56 rounded-lg" />
      </div>
    );
  }

  return (
    <>
      <div className="mb-3">{back}</div>
      <TradeHeader
        detail={detail}
        accountName={accountName}
        testnet={isTestnetAccount?.(detail.trade.tradingAccountId) ?? false}
        botName={botName}
        remove={remove}
        figures={figures}
      />
      <TradeFigures
        detail={detail}
        venueName={venueName?.(detail.trade.tradingAccountId)}
        figures={figures}
      />
      <TakeProfitLadder detail={detail} figures={figures} />
      <TradeTimeline detail={detail} figures={figures} />
    </>
  );
}

function TradeHeader({
  detail,
  accountName,
  testnet,
  botName,
  remove,
  figures,
}: {
  detail: TradeDetailData;
  accountName?: TradeDetailProps['accountName'];
  testnet: boolean;
  botName?: TradeDetailProps['botName'];
  remove: ReturnType<typeof useDeleteTrade>;
  figures: MarketFigures;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigate = useNavigate();
  const complete = useCompleteTrade();
  const [editingStop, setEditingStop] = useState(false);
  const { trade } = detail;
  const live = trade.status === 'open' || trade.status === 'closing';
  // A resting limit entry: "Close now" cancels the order (nothing held, nothing sold).
  const pending = isAwaitingEntry(trade);

  const closeNow = async () => {
    const confirmed = await confirmAction(
      pending
        ? {
            title: t('trades.complete.cancelTitle', { symbol: trade.symbol }),
            message: t('trades.complete.cancelMessage'),
            confirmLabel: t('trades.complete.cancelAction'),
            tone: 'danger',
          }
        : {
            title: t('trades.complete.title', { symbol: trade.symbol }),
            message: (
              <>
                {t(trade.side === 'long' ? 'trades.complete.messageLong' : 'trades.complete.messageShort', {
                  amount: figures.quantity(trade, trade.openQuantity),
                })}
                <EstimateNow
                  symbol={trade.symbol}
                  currentPrice={trade.currentPrice}
                  estimate={trade.estimatedClosePnl}
                />
              </>
            ),
            confirmLabel: t('trades.complete.confirm'),
            tone: 'danger',
          },
    );
    if (!confirmed) return;
    complete.mutate(trade.id, {
      onSuccess: (result) => {
        if (result.status === 'cancelled')
          toast.success(t('trades.complete.cancelled', { symbol: trade.symbol }));
        else if (result.completed) toast.success(t('trades.complete.done', { symbol: trade.symbol }));
        else toast.info(t('trades.complete.sent', { symbol: trade.symbol }));
      },
      onError: (error) => toast.error(t('trades.complete.failed'), { description: errorMessage(t, error) }),
    });
  };

  const deleteTrade = async () => {
    const confirmed = await confirmAction({
      title: t('trades.delete.title', { symbol: trade.symbol }),
      message: t('trades.delete.message'),
      confirmLabel: t('trades.delete.confirm'),
      tone: 'danger',
    });
    if (!confirmed) return;
    remove.mutate(trade.id, {
      onSuccess: () => {
        toast.success(t('trades.delete.deleted', { symbol: trade.symbol }));
        void navigate(trade.botId ? paths.bot(trade.botId) : paths.trading);
      },
      onError: (error) => toast.error(t('trades.delete.failed'), { description: errorMessage(t, error) }),
    });
  };

  const account = accountName?.(trade.tradingAccountId);
  const bot = trade.botId ? (botName?.(trade.botId) ?? t('trades.detail.bot')) : null;
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>{trade.symbol}</span>
            <SideText side={trade.side} className="text-base font-medium" />
            <TradeStatusBadge trade={trade} />
            {testnet ? <TestnetBadge /> : null}
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-1.5">
            {bot && trade.botId ? (
              <Link to={paths.bot(trade.botId)} className="text-fg hover:text-accent">
                {bot}
              </Link>
            ) : (
              <span>{t('trades.detail.manual')}</span>
            )}
            <span aria-hidden="true">·</span>
            <Link to={paths.accounts} className="text-fg hover:text-accent">
              {account ?? t('trades.detail.account')}
            </Link>
            {testnet ? <TestnetBadge /> : null}
            <span aria-hidden="true">·</span>
            <span>
              {t('trades.detail.openedAt', { time: format.dateTime(trade.openedAt) })}
              {trade.closedAt
                ? ` — ${t('trades.detail.closedAt', { time: format.dateTime(trade.closedAt) })}`
                : ''}
            </span>
            {trade.closeReason ? (
              <>
                <span aria-hidden="true">·</span>
                <CloseReason reason={trade.closeReason} />
              </>
            ) : null}
          </span>
        }
        actions={
          <>
            {trade.status === 'open' ? (
              <Button variant="secondary" onClick={() => setEditingStop(true)}>
                {t('trades.stopLoss.action')}
              </Button>
            ) : null}
            {live ? (
              <Button variant="danger" onClick={() => void closeNow()} loading={complete.isPending}>
                {pending ? t('trades.complete.cancelAction') : t('trades.complete.action')}
              </Button>
            ) : null}
            {isFinished(trade.status) ? (
              <Button
                variant="ghost"
                className="hover:text-loss"
                onClick={() => void deleteTrade()}
                loading={remove.isPending}
              >
                {t('trades.delete.action')}
              </Button>
            ) : null}
          </>
        }
      />
      {trade.error ? (
        <p
          role="alert"
          className="-mt-2 mb-4 rounded-md border border-loss/30 bg-loss/10 px-3 py-2 text-sm text-fg"
        >
          {tradeNote(t, trade)}
        </p>
      ) : null}
      {editingStop ? (
        <StopLossDialog detail={detail} figures={figures} onClose={() => setEditingStop(false)} />
      ) : null}
    </>
  );
}

function CloseReason({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return <span>{closeReasonText(t, reason)}</span>;
}

function Figure({
  label,
  children,
  hint,
  footer,
}: {
  label: ReactNode;
  children: ReactNode;
  hint?: ReactNode;
  /** Below the hint, wrapping (the stop's protection). */
  footer?: ReactNode;
}) {
  return (
    <Card className="px-4 py-3">
      <p className="text-xs text-muted">{label}</p>
      <div className="num mt-1 text-base font-semibold text-fg">{children}</div>
      {hint ? <p className="mt-0.5 text-xs text-subtle">{hint}</p> : null}
      {footer ? <div className="mt-1.5 text-xs">{footer}</div> : null}
    </Card>
  );
}

/** The header figures of spec §2: quantity, entry/exit, PnL with sign and arrow, PnL %, commission, duration. */
function TradeFigures({
  detail,
  venueName,
  figures,
}: {
  detail: TradeDetailData;
  venueName?: string;
  figures: MarketFigures;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { trade } = detail;
  const { base, quote } = splitSymbol(trade.symbol);
  const live = trade.status === 'open' || trade.status === 'closing';
  const pending = isAwaitingEntry(trade);
  const entryOrder = pending ? detail.orders.find((order) => order.role === 'entry') : undefined;
  const price = (value: string | null) =>
    value === null ? (
      <span className="text-subtle">—</span>
    ) : (
      <>
        {figures.price(trade, value, { unit: false })}{' '}
        <span className="text-xs font-normal text-muted">{quote}</span>
      </>
    );

  let stopHint: string | undefined;
  if (trade.stopMovedToBreakEven) stopHint = t('trades.figures.stopBreakEven');
  else if (trade.stopLossPercent)
    stopHint = t('trades.figures.stopPercent', { percent: format.percent(trade.stopLossPercent) });

  return (
    <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {live && !pending ? (
        <>
          <Figure
            label={t('trades.unrealised.unrealisedPnl')}
            hint={trade.unrealisedPnl ? undefined : t('trades.unrealised.notPriced')}
            footer={trade.unrealisedPnl ? <UnrealisedPercents trade={trade} /> : undefined}
          >
            <SignedValue value={trade.unrealisedPnl} unit={quote} />
          </Figure>
          <Figure label={t('trades.unrealised.currentPrice')} hint={t('trades.unrealised.refreshHint')}>
            {price(trade.currentPrice ?? null)}
          </Figure>
        </>
      ) : null}
      <Figure
        // Beside the unrealised PnL of an open position, this one is what its exits realised so far.
        label={live && !pending ? t('trades.figures.realisedPnl') : t('trades.figures.pnl')}
        hint={live && trade.pnl !== null ? t('trades.figures.realisedSoFar') : undefined}
      >
        <SignedValue value={trade.pnl} unit={quote} />
      </Figure>
      <Figure
        label={t('trades.figures.pnlPercent')}
        hint={trade.pnlMarginPercent ? t('trades.figures.ofNotional') : undefined}
        footer={
          trade.pnlMarginPercent ? (
            <span className="text-xs text-muted">
              <PnlText value={trade.pnlMarginPercent} kind="percent" />{' '}
              {t('trades.figures.onMargin', {
                leverage: String(Number(trade.leveragePercent) / 100),
              })}
            </span>
          ) : undefined
        }
      >
        {trade.pnlPercent === null ? (
          <span className="text-subtle">—</span>
        ) : (
          <PnlText value={trade.pnlPercent} kind="percent" />
        )}
      </Figure>
      {entryOrder ? (
        // Not a position yet (issue 21): the order it waits on, not "0.00".
        <Figure
          label={t('trades.figures.quantity')}
          footer={
            <span className="text-subtle">
              {t('trades.figures.entryOrder', {
                amount: figures.quantity(trade, entryOrder.amount),
                price: figures.price(trade, entryOrder.price),
              })}
            </span>
          }
        >
          <span className="text-subtle">—</span>
        </Figure>
      ) : (
        <Figure
          label={t('trades.figures.quantity')}
          hint={
            live
              ? t('trades.figures.held', { amount: figures.quantity(trade, trade.openQuantity) })
              : undefined
          }
        >
          {figures.quantity(trade, trade.quantity, { unit: false })}{' '}
          <span className="text-xs font-normal text-muted">{base}</span>
        </Figure>
      )}
      <Figure label={t('trades.figures.duration')} hint={live ? t('trades.figures.running') : undefined}>
        {formatDuration(tradeDurationMs(trade), t)}
      </Figure>
      <Figure label={t('trades.figures.entry')}>{price(trade.entryPrice)}</Figure>
      <Figure label={t('trades.figures.exit')}>{price(trade.exitPrice)}</Figure>
      <Figure label={t('trades.figures.commission')}>
        {formatMoneyNumber(trade.commission, quote, { locale: format.locale })}{' '}
        <span className="text-xs font-normal text-muted">{quote}</span>
      </Figure>
      <Figure
        label={t('trades.figures.stopLoss')}
        hint={stopHint}
        footer={
          detail.protection && !pending ? (
            <StopProtection protection={detail.protection} venueName={venueName} />
          ) : undefined
        }
      >
        {trade.stopLossPrice === null ? (
          <span className="text-subtle">
            {pending && trade.stopLossPercent ? t('trades.figures.stopAtFill') : t('trades.figures.noStop')}
          </span>
        ) : (
          price(trade.stopLossPrice)
        )}
      </Figure>
    </div>
  );
}
