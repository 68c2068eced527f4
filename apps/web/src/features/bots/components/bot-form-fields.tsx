import type { FieldError, FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import {
  type AccountOption,
  type Allocation,
  type BotFormValues,
  MAX_LEVERAGE,
  parseDecimal,
} from '../utils/bot-rules';
import { ChoiceCards } from './choice-cards';

export type FieldChange = <K extends keyof BotFormValues>(name: K, value: BotFormValues[K]) => void;

interface FieldsProps {
  values: BotFormValues;
  errors: FieldErrors<BotFormValues>;
  onChange: FieldChange;
  /** The edit dialog: several fields a row, no hints. */
  compact?: boolean;
}

/**
 * A rule's message as text: `bots.errors.*` keys are translated here with their figures (the leverage
 * ceiling; what the account has left, from its `allocation`); spec §5 sentences are passed on as they
 * are (the fields translate them).
 */
export function useRuleMessage(allocation?: Allocation) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (error: Pick<FieldError, 'message'> | undefined): string | undefined => {
    const message = error?.message;
    if (!message) return undefined;
    if (!message.startsWith('bots.')) return message;
    if (message === 'bots.errors.leverageRange') return t(message, { max: MAX_LEVERAGE });
    if (message === 'bots.errors.overAllocatedPercent')
      return t(message, { available: format.percent(allocation?.availablePercent ?? 0) });
    if (message === 'bots.errors.overAllocatedAmount')
      return t(message, { available: format.decimal(allocation?.availableAmount ?? 0) });
    return t(message);
  };
}

export function NameFields({ values, errors, onChange, compact = false }: FieldsProps) {
  const { t } = useTranslation();
  const message = useRuleMessage();
  return (
    <Input
      label={t('bots.fields.nickname')}
      hint={compact ? undefined : t('bots.wizard.nameHint')}
      placeholder={t('bots.wizard.namePlaceholder')}
      value={values.nickname}
      maxLength={80}
      autoComplete="off"
      autoFocus
      error={message(errors.nickname)}
      onChange={(event) => onChange('nickname', event.target.value)}
    />
  );
}

export function ConfigFields({ values, errors, onChange, compact = false }: FieldsProps) {
  const { t } = useTranslation();
  const message = useRuleMessage();
  const goal = (
    <Input
      label={t('bots.fields.monthlyGoal')}
      hint={compact ? undefined : t('bots.wizard.goalHint')}
      value={values.monthlyGoalPercent}
      inputMode="decimal"
      numeric
      suffix="%"
      placeholder={t('bots.wizard.optional')}
      error={message(errors.monthlyGoalPercent)}
      onChange={(event) => onChange('monthlyGoalPercent', event.target.value)}
      fieldClassName={compact ? undefined : 'sm:max-w-[calc(50%-0.5rem)]'}
    />
  );
  return (
    <div className="flex flex-col gap-4">
      <div className={cn('grid gap-4', compact ? 'sm:grid-cols-3' : 'sm:grid-cols-2')}>
        <Input
          label={t('bots.fields.tradeCurrency')}
          hint={compact ? undefined : t('bots.wizard.tradeCurrencyHint')}
          value={values.tradeCurrency}
          maxLength={12}
          autoComplete="off"
          className="uppercase"
          error={message(errors.tradeCurrency)}
          onChange={(event) => onChange('tradeCurrency', event.target.value)}
        />
        <Input
          label={t('bots.fields.stableCoin')}
          hint={compact ? undefined : t('bots.wizard.stableCoinHint')}
          value={values.stableCoin}
          maxLength={12}
          autoComplete="off"
          className="uppercase"
          error={message(errors.stableCoin)}
          onChange={(event) => onChange('stableCoin', event.target.value)}
        />
        {compact ? goal : null}
      </div>
      {compact ? null : goal}
    </div>
  );
}

interface DistributionState {
  allocation: Allocation | undefined;
  isPending: boolean;
  error: unknown;
  retry: () => void;
}

/** Step "leverage and volume": leverage (futures only), then a share of the account or a fixed amount. */
export function VolumeFields({
  values,
  errors,
  onChange,
  account,
  distribution,
  compact = false,
}: FieldsProps & {
  account: AccountOption | undefined;
  distribution: DistributionState;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const message = useRuleMessage(distribution.allocation);
  const futures = account?.marketType === 'future';
  const leverage = parseDecimal(values.leverage);
  const stable = values.stableCoin.trim().toUpperCase() || 'USDT';

  const leverageField = futures ? (
    <Input
      label={t('bots.fields.leverage')}
      hint={
        leverage >= 1
          ? t('bots.wizard.leverageHint', { percent: format.percent(leverage * 100), max: MAX_LEVERAGE })
          : t('bots.wizard.leverageRange', { max: MAX_LEVERAGE })
      }
      value={values.leverage}
      inputMode="decimal"
      numeric
      suffix="×"
      error={message(errors.leverage)}
      onChange={(event) => onChange('leverage', event.target.value)}
      fieldClassName={compact ? undefined : 'sm:max-w-[calc(50%-0.5rem)]'}
    />
  ) : (
    <p
      className={cn(
        'rounded-md border border-line bg-surface-2 px-3 py-2 text-xs text-muted',
        // Beside the amount in the edit dialog: level with its input, below the label.
        compact && 'sm:mt-[22px]',
      )}
    >
      {t('bots.wizard.spotNoLeverage')}
    </p>
  );
  const sizingField =
    values.sizing === 'portfolio' ? (
      <Input
        label={t('bots.fields.portfolioPercent')}
        value={values.portfolioPercent}
        inputMode="decimal"
        numeric
        suffix="%"
        error={message(errors.portfolioPercent)}
        onChange={(event) => onChange('portfolioPercent', event.target.value)}
        fieldClassName={compact ? undefined : 'sm:max-w-[calc(50%-0.5rem)]'}
      />
    ) : (
      <Input
        label={t('bots.fields.fixedAmount')}
        value={values.fixedAmount}
        inputMode="decimal"
        numeric
        suffix={stable}
        error={message(errors.fixedAmount)}
        onChange={(event) => onChange('fixedAmount', event.target.value)}
        fieldClassName={compact ? undefined : 'sm:max-w-[calc(50%-0.5rem)]'}
      />
    );

  return (
    <div className={cn('flex flex-col', compact ? 'gap-4' : 'gap-5')}>
      {compact ? null : leverageField}
      <ChoiceCards
        label={t('bots.fields.sizing')}
        name="sizing"
        columns={2}
        value={values.sizing}
        onChange={(sizing) => onChange('sizing', sizing as BotFormValues['sizing'])}
        options={[
          {
            value: 'portfolio',
            title: t('bots.sizing.portfolio'),
            description: t('bots.sizing.portfolioHint'),
          },
          {
            value: 'fixed',
            title: t('bots.sizing.fixed'),
            description: t('bots.sizing.fixedHint', { stable }),
          },
        ]}
      />

      {compact ? (
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {sizingField}
          {leverageField}
        </div>
      ) : (
        sizingField
      )}

      {distribution.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : distribution.error ? (
        <ErrorState error={distribution.error} onRetry={distribution.retry} className="py-4" />
      ) : distribution.allocation ? (
        <AllocationBar
          allocation={distribution.allocation}
          values={values}
          accountName={account?.nickname ?? ''}
        />
      ) : null}
    </div>
  );
}

/** Who claims the account: other bots, this bot, what is left. Over 100% turns red. */
export function AllocationBar({
  allocation,
  values,
  accountName,
}: {
  allocation: Allocation;
  values: Pick<BotFormValues, 'sizing' | 'portfolioPercent' | 'fixedAmount'>;
  accountName: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const others = 100 - allocation.availablePercent;
  const typed =
    values.sizing === 'portfolio'
      ? parseDecimal(values.portfolioPercent)
      : allocation.balance > 0
        ? (parseDecimal(values.fixedAmount) / allocation.balance) * 100
        : Number.NaN;
  const mine = Number.isFinite(typed) ? Math.max(0, typed) : 0;
  const over = mine > allocation.availablePercent + 1e-9;
  // What stays free once this bot takes its share; the error message says how much was free.
  const leftPercent = Math.max(0, allocation.availablePercent - mine);
  const leftAmount = (allocation.balance * leftPercent) / 100;

  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-line bg-surface-2 px-3 py-3"
      data-testid="allocation"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-fg">{t('bots.allocation.title', { account: accountName })}</span>
        <span className="num text-muted">
          {t('bots.allocation.balance', { balance: format.decimal(allocation.balance) })}
        </span>
      </div>
      <div
        className="flex h-2.5 overflow-hidden rounded-full bg-surface-3"
        role="img"
        aria-label={t('bots.allocation.summary', {
          others: format.percent(others),
          mine: format.percent(mine),
          left: format.percent(leftPercent),
        })}
      >
        <div className="h-full bg-subtle" style={{ width: `${Math.min(100, others)}%` }} />
        <div
          className={cn('h-full', over ? 'bg-loss' : 'bg-accent')}
          style={{ width: `${Math.min(100 - Math.min(100, others), mine)}%` }}
        />
      </div>
      <dl className="num grid grid-cols-3 gap-2 text-xs">
        <div>
          <dt className="flex items-center gap-1.5 text-muted">
            <span className="inline-block h-2 w-2 rounded-full bg-subtle" aria-hidden="true" />
            {t('bots.allocation.others')}
          </dt>
          <dd className="text-fg">{format.percent(others)}</dd>
        </div>
        <div>
          <dt className="flex items-center gap-1.5 text-muted">
            <span
              className={cn('inline-block h-2 w-2 rounded-full', over ? 'bg-loss' : 'bg-accent')}
              aria-hidden="true"
            />
            {t('bots.allocation.mine')}
          </dt>
          <dd className={over ? 'text-loss' : 'text-fg'}>
            {over ? '▲ ' : ''}
            {format.percent(mine)}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('bots.allocation.left')}</dt>
          <dd className="text-fg">
            {format.percent(leftPercent)}
            <span className="block text-subtle">≈ {format.decimal(leftAmount.toFixed(2))} USDT</span>
          </dd>
        </div>
      </dl>
    </div>
  );
}
