import { VALIDATION_MESSAGES, priceSchema } from '@kairos/contract';
import type { TradeDetail } from '@kairos/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import { cn } from '../../../lib/cn';
import { type UpdateTradeBody, useUpdateTrade } from '../api/update-trade';
import type { MarketFigures } from '../hooks/use-market-figures';
import { splitSymbol, toDecimal } from '../utils/trade-figures';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

type Mode = 'percent' | 'price';

const DECIMAL = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;

/** "3.000000" → "3": what a person would have typed. */
const trimDecimal = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/**
 * Edits the stop of an open trade (`PUT /api/trades/{id}`): a distance from the entry in percent or a
 * price, or none at all; and whether it moves to break-even once TP1 fills.
 */
export function StopLossDialog({
  detail,
  figures,
  onClose,
}: {
  detail: TradeDetail;
  figures: MarketFigures;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateTrade();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const { trade } = detail;
  const { quote } = splitSymbol(trade.symbol);
  const radioName = useId();
  const [mode, setMode] = useState<Mode>(trade.stopLossPercent || !trade.stopLossPrice ? 'percent' : 'price');
  const [percent, setPercent] = useState(trade.stopLossPercent ? trimDecimal(trade.stopLossPercent) : '');
  const [price, setPrice] = useState(
    !trade.stopLossPercent && trade.stopLossPrice ? trimDecimal(trade.stopLossPrice) : '',
  );
  const [breakEven, setBreakEven] = useState(trade.breakEvenAfterTp1);
  const [error, setError] = useState<string | undefined>();

  const close = () => {
    if (!update.isPending) onClose();
  };

  const save = (body: UpdateTradeBody, removed = false) =>
    void singleFlight(() =>
      update.mutateAsync({ id: trade.id, body }).then(() => {
        toast.success(t(removed ? 'trades.stopLoss.removed' : 'trades.stopLoss.saved'));
        onClose();
      }, ignoreRefusal),
    );

  const submit = () => {
    if (mode === 'percent') {
      const value = percent.trim();
      if (!DECIMAL.test(value) || Number(toDecimal(value)) <= 0 || Number(toDecimal(value)) >= 100) {
        setError(t('trades.form.errors.stopLoss'));
        return;
      }
      setError(undefined);
      save({ stopLossPercent: toDecimal(value), breakEvenAfterTp1: breakEven });
      return;
    }
    const parsed = priceSchema.safeParse(price);
    if (!parsed.success) {
      setError(VALIDATION_MESSAGES.price);
      return;
    }
    setError(undefined);
    save({ stopLossPrice: parsed.data, breakEvenAfterTp1: breakEven });
  };

  const hasStop = trade.stopLossPrice !== null;
  // Break-even applies when TP1 fills: once it has, the switch has nothing left to do.
  const tp1Pending = detail.ladder.some(
    (level) => level.role === 'tp1' && level.status !== 'filled' && level.status !== 'cancelled',
  );
  const below = trade.side === 'long';
  return (
    <Dialog
      open
      size="md"
      onClose={close}
      title={t('trades.stopLoss.title', { symbol: trade.symbol })}
      description={
        hasStop
          ? t('trades.stopLoss.current', { price: figures.price(trade, trade.stopLossPrice) })
          : t('trades.stopLoss.none')
      }
      footer={
        <>
          {hasStop ? (
            <Button
              variant="ghost"
              className="mr-auto hover:text-loss"
              disabled={update.isPending}
              onClick={() => save({ stopLossPercent: null }, true)}
            >
              {t('trades.stopLoss.remove')}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form="stop-loss-form" loading={update.isPending}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <form
        id="stop-loss-form"
        noValidate
        aria-label={t('trades.stopLoss.title', { symbol: trade.symbol })}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="flex flex-col gap-4 py-2"
      >
        <div role="radiogroup" aria-label={t('trades.stopLoss.mode')} className="grid grid-cols-2 gap-2">
          {(['percent', 'price'] as const).map((option) => (
            <label
              key={option}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm',
                mode === option ? 'border-accent bg-accent/10 text-fg' : 'border-line-strong text-muted',
              )}
            >
              <input
                type="radio"
                name={radioName}
                value={option}
                checked={mode === option}
                onChange={() => {
                  setMode(option);
                  setError(undefined);
                }}
                className="accent-[var(--k-accent)]"
              />
              {t(`trades.stopLoss.${option}`)}
            </label>
          ))}
        </div>
        {mode === 'percent' ? (
          <Input
            label={t('trades.stopLoss.percentLabel')}
            hint={t(below ? 'trades.stopLoss.percentHintLong' : 'trades.stopLoss.percentHintShort', {
              entry: figures.price(trade, trade.entryPrice),
            })}
            inputMode="decimal"
            numeric
            suffix="%"
            autoFocus
            value={percent}
            onChange={(event) => setPercent(event.target.value)}
            error={error}
          />
        ) : (
          <Input
            label={t('trades.stopLoss.priceLabel', { quote })}
            hint={t(below ? 'trades.stopLoss.priceHintLong' : 'trades.stopLoss.priceHintShort')}
            inputMode="decimal"
            numeric
            suffix={quote}
            autoFocus
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            error={error}
          />
        )}
        {tp1Pending ? (
          <Toggle
            checked={breakEven}
            onChange={setBreakEven}
            label={t('trades.stopLoss.breakEven')}
            description={t('trades.stopLoss.breakEvenHint')}
          />
        ) : null}
        {update.isError ? <FormError error={update.error} /> : null}
      </form>
    </Dialog>
  );
}
