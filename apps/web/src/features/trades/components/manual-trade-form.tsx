import { MAX_TAKE_PROFITS, takeProfitSizeTotal, takeProfitSizesFit } from '@kairos/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo } from 'react';
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import { paths } from '../../../config/paths';
import { useTranslateMessage } from '../../../i18n/translate-message';
import { cn } from '../../../lib/cn';
import { stepDecimals, useMoney } from '../../../lib/money';
import { parseLocaleNumber } from '../../../lib/parse-number';
import { useFormatters } from '../../../lib/use-formatters';
import { useCreateTrade } from '../api/create-trade';
import { isAwaitingEntry, splitSymbol } from '../utils/trade-figures';
import {
  type TradeFormInput,
  type TradeFormValues,
  emptyTradeForm,
  toCreateTradeBody,
  tradeFormSchemaFor,
} from '../utils/trade-form';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

export interface TradeAccountOption {
  id: string;
  nickname: string;
  exchange: string;
  marketType: 'spot' | 'future';
  usdtBalance: string;
  /** A testnet or demo-trading account: said in the picker, so a real order is never sent by mistake. */
  sandbox?: boolean;
}

export interface ManualTradeFormProps {
  /** Undefined while the accounts load. */
  accounts: TradeAccountOption[] | undefined;
  /** The accounts could not be read: said so, with a retry. */
  accountsError?: unknown;
  onRetryAccounts?: () => void;
  accountId: string;
  onAccountChange: (accountId: string) => void;
  /** 'BTC/USDT', from the pair picker. */
  symbol: string;
  /** The last price, for the order's estimated value. */
  lastPrice?: string | null;
  /** A price picked in the order book; fills the limit price. */
  pickedPrice?: { price: string; at: number } | null;
  /** The market's amount step: a share of the balance is rounded down to it. */
  amountStep?: string | null;
}

/** The shares of the available balance the form offers (issue 21). */
export const BALANCE_SHARES = [25, 50, 75, 100] as const;

/**
 * The base amount that `percent` of `available` (quote) buys at `price`, rounded down to the market's step
 * (none known: 8 decimals); null when it cannot be said (no price, no balance).
 */
export function amountForShare(
  available: string,
  percent: number,
  price: string,
  step: string | null | undefined,
): string | null {
  const spend = (Number(available) * percent) / 100;
  const unit = Number(price);
  if (!(spend > 0) || !(unit > 0)) return null;
  const decimals = step ? stepDecimals(step) : 8;
  const size = step && Number(step) > 0 ? Number(step) : 10 ** -decimals;
  const steps = Math.floor(spend / unit / size + 1e-9);
  return steps > 0 ? (steps * size).toFixed(decimals) : null;
}

/** Our rules carry translation keys; spec §5 sentences pass through (the fields translate them). */
function useFieldMessage() {
  const { t } = useTranslation();
  return (message: string | undefined) => (message?.startsWith('trades.') ? t(message) : message);
}

/**
 * Spec §2 Trading: a manual trade (`POST /api/trades`) on one of the user's accounts — side, amount,
 * an optional limit price (empty: market), an optional take-profit ladder and stop-loss. Amount and
 * price use the shared rules of spec §5 ('Please enter a valid amount', 'Please enter a valid price').
 */
export function ManualTradeForm({
  accounts,
  accountsError,
  onRetryAccounts,
  accountId,
  onAccountChange,
  symbol,
  lastPrice,
  pickedPrice,
  amountStep,
}: ManualTradeFormProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const money = useMoney();
  const fieldMessage = useFieldMessage();
  const create = useCreateTrade();
  const singleFlight = useSingleFlight();
  const sideName = useId();
  const { base, quote } = splitSymbol(symbol);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    reset,
    getValues,
    formState: { errors },
  } = useForm<TradeFormInput, unknown, TradeFormValues>({
    // Numbers read as the user's language writes them; checked as they are typed (issue 21).
    resolver: zodResolver(useMemo(() => tradeFormSchemaFor(format.locale), [format.locale])),
    mode: 'onChange',
    defaultValues: emptyTradeForm(accountId, symbol),
  });
  const side = useWatch({ control, name: 'side' });
  const amount = useWatch({ control, name: 'amount' });
  const price = useWatch({ control, name: 'price' });
  const stopLoss = useWatch({ control, name: 'stopLossPercent' });
  const breakEven = useWatch({ control, name: 'breakEvenAfterTp1' });
  const takeProfits = useWatch({ control, name: 'takeProfits' });

  // Account and pair are chosen around the form (market data follows them): keep the form in step.
  useEffect(() => setValue('accountId', accountId), [accountId, setValue]);
  useEffect(() => setValue('symbol', symbol), [symbol, setValue]);
  useEffect(() => {
    if (pickedPrice) setValue('price', pickedPrice.price, { shouldValidate: true });
  }, [pickedPrice, setValue]);

  // The server's refusal was about what was sent: it goes once the order is changed.
  const refused = create.isError;
  const resetRefusal = create.reset;
  useEffect(() => {
    if (refused) resetRefusal();
    // Only a change of the order clears it, not the refusal's own arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [amount, price, side, accountId, symbol]);

  const account = accounts?.find((row) => row.id === accountId);
  const spot = account?.marketType === 'spot';
  useEffect(() => {
    if (spot && getValues('side') === 'short') setValue('side', 'long');
  }, [spot, getValues, setValue]);

  if (accountsError) {
    return (
      <Card>
        <CardHeader title={t('trading.form.title')} />
        <ErrorState error={accountsError} onRetry={onRetryAccounts} className="py-6" />
      </Card>
    );
  }
  if (accounts === undefined) {
    return (
      <Card>
        <CardHeader title={t('trading.form.title')} />
        <div className="flex flex-col gap-3 p-4" role="status" aria-label={t('common.loading')}>
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-9" />
          ))}
        </div>
      </Card>
    );
  }
  if (accounts.length === 0) {
    return (
      <Card>
        <CardHeader title={t('trading.form.title')} />
        <EmptyState
          title={t('trading.form.noAccount.title')}
          description={t('trading.form.noAccount.description')}
          actions={
            <Link to={paths.accounts} className={buttonClasses({ size: 'sm' })}>
              {t('trading.form.noAccount.action')}
            </Link>
          }
        />
      </Card>
    );
  }

  // A double click on "open" opens one trade.
  const onSubmit = (form: TradeFormValues) =>
    singleFlight(async () => {
      const detail = await create.mutateAsync(toCreateTradeBody(form)).catch(ignoreRefusal);
      if (!detail) return;
      const entry = detail.orders.find((order) => order.role === 'entry');
      // A limit entry resting below the market holds nothing yet: it is an order placed, not "Long 0 BTC".
      if (isAwaitingEntry(detail.trade) && entry)
        toast.success(
          t(detail.trade.side === 'long' ? 'trading.form.placedLong' : 'trading.form.placedShort', {
            amount: money.quantity(entry.amount, base, amountStep),
            price: money.price(entry.price, quote),
          }),
          { description: t('trading.form.placedHint') },
        );
      else
        toast.success(
          t(detail.trade.side === 'long' ? 'trading.form.openedLong' : 'trading.form.openedShort', {
            amount: money.quantity(detail.trade.quantity, undefined, amountStep),
            symbol: detail.trade.symbol,
          }),
          { description: t('trading.form.openedHint') },
        );
      reset({ ...getValues(), amount: '', price: '' });
    });

  // The estimate is for the eye only (≈): the server sizes and rounds the order in decimals.
  const typedPrice = price?.trim() ? parseLocaleNumber(price, format.locale) : null;
  const reference = price?.trim() ? (typedPrice ?? '') : (lastPrice ?? '');
  const estimate = Number(parseLocaleNumber(amount ?? '', format.locale) ?? Number.NaN) * Number(reference);
  // What the account can spend: its USDT balance, for a pair quoted in USDT (the balance Kairos reads).
  const available = account && quote === 'USDT' ? account.usdtBalance : null;
  const fillShare = (percent: number) => {
    const next = available && reference ? amountForShare(available, percent, reference, amountStep) : null;
    if (next) setValue('amount', next, { shouldValidate: true });
  };

  return (
    <Card>
      <CardHeader title={t('trading.form.title')} description={t('trading.form.description', { symbol })} />
      <form
        noValidate
        aria-label={t('trading.form.title')}
        onSubmit={(event) => void handleSubmit(onSubmit)(event)}
        className="@container p-4"
      >
        {/* Two columns when the card is wide (under the chart), one when it is narrow (phones). */}
        <div className="grid gap-x-6 gap-y-4 @xl:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-4">
            <Select
              label={t('trading.form.account')}
              options={accounts.map((row) => ({
                value: row.id,
                label: [
                  row.nickname,
                  t(`trading.form.marketType.${row.marketType}`),
                  ...(row.sandbox ? [t('common.testnet')] : []),
                ].join(' · '),
              }))}
              placeholder={accountId ? undefined : t('trading.form.chooseAccount')}
              error={fieldMessage(errors.accountId?.message)}
              {...register('accountId', { onChange: (event) => onAccountChange(String(event.target.value)) })}
            />
            <fieldset>
              <legend className="mb-1.5 text-xs font-medium text-muted">{t('trading.form.side')}</legend>
              <div className="grid grid-cols-2 gap-1 rounded-md border border-line-strong bg-surface-2 p-1">
                {(['long', 'short'] as const).map((option) => {
                  const disabled = option === 'short' && spot;
                  const checked = side === option;
                  return (
                    <label
                      key={option}
                      title={disabled ? t('trading.form.shortNeedsFutures') : undefined}
                      className={cn(
                        'flex h-8 cursor-pointer items-center justify-center gap-1.5 rounded text-sm font-medium transition-colors',
                        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
                        checked && option === 'long' && 'bg-gain text-white dark:text-bg',
                        checked && option === 'short' && 'bg-loss text-white dark:text-bg',
                        !checked && 'text-muted hover:text-fg',
                        disabled && 'cursor-not-allowed opacity-40 hover:text-muted',
                      )}
                    >
                      <input
                        type="radio"
                        className="sr-only"
                        name={sideName}
                        value={option}
                        checked={checked}
                        disabled={disabled}
                        onChange={() => setValue('side', option)}
                      />
                      <span aria-hidden="true">{option === 'long' ? '▲' : '▼'}</span>
                      {t(`position.${option}`)}
                    </label>
                  );
                })}
              </div>
              {spot ? (
                <p className="mt-1 text-xs text-subtle">{t('trading.form.shortNeedsFutures')}</p>
              ) : null}
            </fieldset>
            <div className="grid grid-cols-2 gap-3">
              <Input
                label={t('trading.form.amount')}
                inputMode="decimal"
                autoComplete="off"
                numeric
                suffix={base}
                error={fieldMessage(errors.amount?.message)}
                {...register('amount')}
              />
              <Input
                label={t('trading.form.price')}
                placeholder={t('trading.form.market')}
                inputMode="decimal"
                autoComplete="off"
                numeric
                suffix={quote}
                error={fieldMessage(errors.price?.message)}
                {...register('price')}
              />
            </div>
            {available !== null ? (
              <div className="-mt-2 flex flex-wrap items-center justify-between gap-2">
                <p className="num text-xs text-muted">
                  {t('trading.form.available', { amount: money.money(available, quote) })}
                </p>
                <div role="group" aria-label={t('trading.form.shareOfBalance')} className="flex gap-1">
                  {BALANCE_SHARES.map((percent) => (
                    <button
                      key={percent}
                      type="button"
                      disabled={!reference || !(Number(available) > 0)}
                      aria-label={t('trading.form.useShare', { percent })}
                      onClick={() => fillShare(percent)}
                      className="num rounded border border-line px-1.5 py-0.5 text-xs text-muted hover:border-line-strong hover:text-fg disabled:cursor-not-allowed disabled:opacity-50"
                    >
                      {percent}%
                    </button>
                  ))}
                </div>
              </div>
            ) : null}
            <p className="num -mt-2 text-xs text-subtle" aria-live="polite">
              {Number.isFinite(estimate) && estimate > 0
                ? t('trading.form.total', {
                    total: money.money(estimate, quote),
                    kind: price?.trim() ? t('trading.form.limitOrder') : t('trading.form.marketOrder'),
                  })
                : t(price?.trim() ? 'trading.form.limitHint' : 'trading.form.marketHint')}
            </p>
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <TakeProfitFields control={control} register={register} errors={errors} />

            <Input
              label={t('trading.form.stopLoss')}
              hint={t('trading.form.stopLossHint')}
              inputMode="decimal"
              autoComplete="off"
              numeric
              suffix="%"
              error={fieldMessage(errors.stopLossPercent?.message)}
              {...register('stopLossPercent')}
            />
            {stopLoss?.trim() && takeProfits && takeProfits.length > 0 ? (
              <Toggle
                checked={breakEven}
                onChange={(checked) => setValue('breakEvenAfterTp1', checked)}
                label={t('trading.form.breakEven')}
                description={t('trading.form.breakEvenHint')}
              />
            ) : null}
          </div>
        </div>
        {create.isError ? (
          <div className="mt-4">
            <FormError error={create.error} />
          </div>
        ) : null}
        <Button
          type="submit"
          loading={create.isPending}
          className={cn(
            'mt-4 w-full',
            side === 'long'
              ? 'bg-gain hover:bg-gain hover:brightness-110'
              : 'bg-loss hover:bg-loss hover:brightness-110',
            'text-white dark:text-bg',
          )}
        >
          {t(side === 'long' ? 'trading.form.submitLong' : 'trading.form.submitShort', { base })}
        </Button>
      </form>
    </Card>
  );
}

/** TP1..TPn: distance from the entry and share of the position, with the running total. */
function TakeProfitFields({
  control,
  register,
  errors,
}: {
  control: Control<TradeFormInput, unknown, TradeFormValues>;
  register: UseFormRegister<TradeFormInput>;
  errors: FieldErrors<TradeFormInput>;
}) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const fieldMessage = useFieldMessage();
  const format = useFormatters();
  const { fields, append, remove } = useFieldArray({ control, name: 'takeProfits' });
  const ladder = useWatch({ control, name: 'takeProfits' }) ?? [];
  const total = takeProfitSizeTotal(ladder);
  const fits = takeProfitSizesFit(ladder);
  const ladderError = errors.takeProfits?.message ?? errors.takeProfits?.root?.message;

  return (
    <fieldset className="rounded-md border border-line">
      <legend className="ml-3 px-1 text-xs font-medium text-muted">{t('trading.form.takeProfits')}</legend>
      <div className="flex flex-col gap-2 px-3 pt-1 pb-3">
        {fields.length === 0 ? (
          <p className="text-xs text-subtle">{t('trading.form.noTakeProfits')}</p>
        ) : null}
        {fields.length > 0 ? (
          <div
            aria-hidden="true"
            className="grid grid-cols-[2.5rem_1fr_1fr_1.75rem] gap-2 text-[11px] text-subtle"
          >
            <span />
            <span>{t('trading.form.distance')}</span>
            <span>{t('trading.form.size')}</span>
          </div>
        ) : null}
        {fields.map((field, index) => {
          const name = `TP${index + 1}`;
          return (
            <div key={field.id} className="grid grid-cols-[2.5rem_1fr_1fr_1.75rem] items-start gap-2">
              <span className="num pt-2 text-sm font-medium text-fg">{name}</span>
              <Input
                aria-label={t('trading.form.tpDistance', { name })}
                inputMode="decimal"
                autoComplete="off"
                numeric
                suffix="%"
                className="pr-7"
                error={fieldMessage(errors.takeProfits?.[index]?.percent?.message)}
                {...register(`takeProfits.${index}.percent`)}
              />
              <Input
                aria-label={t('trading.form.tpSize', { name })}
                inputMode="decimal"
                autoComplete="off"
                numeric
                suffix="%"
                className="pr-7"
                error={fieldMessage(errors.takeProfits?.[index]?.sizePercent?.message)}
                {...register(`takeProfits.${index}.sizePercent`)}
              />
              <Button
                variant="ghost"
                size="sm"
                className="mt-1 px-1.5"
                onClick={() => remove(index)}
                aria-label={t('trading.form.removeTp', { name })}
                icon={<CloseIcon size={14} />}
              />
            </div>
          );
        })}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button
            variant="secondary"
            size="sm"
            icon={<PlusIcon size={14} />}
            disabled={fields.length >= MAX_TAKE_PROFITS}
            onClick={() =>
              append({
                percent: fields.length === 0 ? '1' : '',
                sizePercent: fields.length === 0 ? '100' : '',
              })
            }
          >
            {t('trading.form.addTp')}
          </Button>
          {fields.length > 0 ? (
            <span className={cn('num text-xs', fits ? 'text-muted' : 'text-loss')}>
              {t('trading.form.sizeTotal', { total: format.percent(total) })}
            </span>
          ) : null}
        </div>
        {ladderError ? (
          <p role="alert" className="text-xs text-loss">
            {translate(fieldMessage(ladderError))}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
