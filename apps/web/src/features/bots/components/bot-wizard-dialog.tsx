import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type FieldErrors, type PathValue, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Dialog, firstFieldIn } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';
import { CheckIcon, PlusIcon } from '../../../components/ui/icons';
import { Skeleton } from '../../../components/ui/skeleton';
import { Badge } from '../../../components/ui/status-badge';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import type { Bot } from '@kairos/contract';
import { useCreateBot } from '../api/create-bot';
import { useBotsDistribution } from '../api/get-bots-distribution';
import { STEP_FIELDS, botFormResolver, firstInvalidStep, useBotFormValues } from '../utils/bot-form-schema';
import {
  type AccountOption,
  type BotFormValues,
  type StrategyOption,
  WIZARD_STEPS,
  type WizardStep,
  allocationOf,
  emptyBotForm,
  toCreateBotBody,
} from '../utils/bot-rules';
import { ConfigFields, NameFields, VolumeFields, useRuleMessage } from './bot-form-fields';
import { ChoiceCards } from './choice-cards';
import { useAllocationText } from './allocation-text';

export interface BotWizardProps {
  accounts: AccountOption[] | undefined;
  strategies: StrategyOption[] | undefined;
  /** Accounts or strategies still loading, or failed. */
  loading?: boolean;
  loadError?: unknown;
  onRetry?: () => void;
  onClose: () => void;
  onCreated?: (bot: Bot) => void;
  /** Where to send a user who has no strategy yet (the strategies tab). */
  onCreateStrategy?: () => void;
}

/** Spec §2: the seven-step bot creation wizard, with back/next and validation per step. */
export function BotWizardDialog({
  accounts = [],
  strategies = [],
  loading,
  loadError,
  onRetry,
  onClose,
  onCreated,
  onCreateStrategy,
}: BotWizardProps) {
  const { t } = useTranslation();
  const create = useCreateBot();
  const [stepIndex, setStepIndex] = useState(0);
  const [reached, setReached] = useState(0);
  const {
    control,
    setValue,
    clearErrors,
    trigger,
    handleSubmit,
    formState: { errors },
  } = useForm<BotFormValues>({
    defaultValues: emptyBotForm,
    // Read when the form is validated: the choices and the allocation (below) of the latest render.
    resolver: botFormResolver(() => ({ accounts, strategies, allocation })),
  });
  const values = useBotFormValues(control);
  const step = WIZARD_STEPS[stepIndex] ?? 'name';
  const account = accounts.find((candidate) => candidate.id === values.tradingAccountId);
  const distribution = useBotsDistribution(values.tradingAccountId || undefined);
  const allocation = distribution.data ? allocationOf(distribution.data) : undefined;

  const change = <K extends keyof BotFormValues>(name: K, value: BotFormValues[K]) => {
    setValue(name, value as PathValue<BotFormValues, K>);
    // A strategy brings its pair; the user may still change it in "config".
    if (name === 'strategyId') {
      const strategy = strategies.find((candidate) => candidate.id === value);
      if (strategy) {
        setValue('tradeCurrency', strategy.tradeCurrency);
        setValue('stableCoin', strategy.stableCoin || 'USDT');
      }
    }
    clearErrors(name);
    if (create.isError) create.reset();
  };

  const goTo = (index: number) => {
    clearErrors();
    setStepIndex(index);
    setReached((current) => Math.max(current, index));
  };

  const next = async () => {
    const fields = STEP_FIELDS[step];
    if (fields.length > 0 && !(await trigger(fields))) return;
    goTo(stepIndex + 1);
  };

  const [created, setCreated] = useState(false);
  const validateAndCreate = handleSubmit(
    async (form) => {
      const bot = await create.mutateAsync(toCreateBotBody(form, account?.marketType)).catch(ignoreRefusal);
      if (!bot) return;
      setCreated(true);
      toast.success(
        t(bot.isActive ? 'bots.wizard.createdLive' : 'bots.wizard.createdPaused', { name: bot.nickname }),
      );
      onCreated?.(bot);
      onClose();
    },
    // Back to the first step with a problem, showing that step's errors.
    async (found) => {
      const invalid = firstInvalidStep(found) ?? 'name';
      goTo(WIZARD_STEPS.indexOf(invalid));
      await trigger(STEP_FIELDS[invalid]);
    },
  );
  // A double click on "create" creates one bot: one at a time, and none once it is made (the wizard closes).
  const singleFlight = useSingleFlight();
  const submit = () => (created ? Promise.resolve() : singleFlight(validateAndCreate));

  const close = () => {
    if (!create.isPending) onClose();
  };

  const last = stepIndex === WIZARD_STEPS.length - 1;
  const needsData = step === 'account' || step === 'strategy';

  // Enter in a field is "Next" (a dialog's Enter never closes it); on the last step it does nothing
  // there, the create button says what it creates.
  const onFieldEnter = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || !(target instanceof HTMLInputElement || target instanceof HTMLSelectElement))
      return;
    event.preventDefault();
    if (!last && !(needsData && (loading || Boolean(loadError)))) void next();
  };
  // A new step's first field takes the focus (the previous step's is gone with it); a step without
  // one, its heading.
  const stepRef = useRef<HTMLElement>(null);
  const shownStep = useRef(stepIndex);
  useEffect(() => {
    if (shownStep.current === stepIndex || !stepRef.current) return;
    shownStep.current = stepIndex;
    const section = stepRef.current;
    (firstFieldIn(section) ?? section.querySelector<HTMLElement>('h3'))?.focus();
  }, [stepIndex]);

  let body: ReactNode;
  if (needsData && loading) {
    body = (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  } else if (needsData && loadError) {
    body = <ErrorState error={loadError} onRetry={onRetry} className="py-4" />;
  } else {
    body = (
      <StepBody
        step={step}
        values={values}
        errors={errors}
        onChange={change}
        accounts={accounts}
        strategies={strategies}
        account={account}
        distribution={{
          allocation,
          isPending: distribution.isPending && Boolean(values.tradingAccountId),
          error: distribution.isError ? distribution.error : undefined,
          retry: () => void distribution.refetch(),
        }}
        onEdit={(target) => goTo(WIZARD_STEPS.indexOf(target))}
        onCreateStrategy={onCreateStrategy}
      />
    );
  }

  return (
    <Dialog
      open
      size="lg"
      onClose={close}
      title={t('bots.wizard.title')}
      description={t('bots.wizard.progress', {
        step: stepIndex + 1,
        total: WIZARD_STEPS.length,
        name: t(`bots.wizard.steps.${step}`),
      })}
      footer={
        <div className="flex w-full items-center justify-between gap-2">
          <Button variant="ghost" onClick={close} disabled={create.isPending}>
            {t('common.cancel')}
          </Button>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              onClick={() => goTo(stepIndex - 1)}
              disabled={stepIndex === 0 || create.isPending}
            >
              {t('bots.wizard.back')}
            </Button>
            {last ? (
              <Button onClick={() => void submit()} loading={create.isPending}>
                {values.release === 'live' ? t('bots.wizard.createLive') : t('bots.wizard.createPaused')}
              </Button>
            ) : (
              <Button onClick={() => void next()} disabled={needsData && (loading || Boolean(loadError))}>
                {t('bots.wizard.next')}
              </Button>
            )}
          </div>
        </div>
      }
    >
      <div className="flex flex-col gap-5 pt-1 pb-3">
        <Stepper current={stepIndex} reached={reached} onSelect={goTo} />
        <section
          ref={stepRef}
          aria-labelledby="bot-wizard-step"
          className="flex flex-col gap-3"
          onKeyDown={onFieldEnter}
        >
          <h3 id="bot-wizard-step" tabIndex={-1} className="text-sm font-semibold text-fg outline-none">
            {t(`bots.wizard.headings.${step}`)}
          </h3>
          {body}
          {last && create.isError ? <FormError error={create.error} /> : null}
        </section>
      </div>
    </Dialog>
  );
}

function Stepper({
  current,
  reached,
  onSelect,
}: {
  current: number;
  reached: number;
  onSelect: (index: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <ol aria-label={t('bots.wizard.stepsLabel')} className="grid grid-cols-7 gap-1">
      {WIZARD_STEPS.map((name, index) => {
        const done = index < current;
        const active = index === current;
        return (
          <li key={name} className="min-w-0">
            <button
              type="button"
              onClick={() => onSelect(index)}
              disabled={index > reached}
              aria-current={active ? 'step' : undefined}
              className="group flex w-full flex-col items-center gap-1 text-center disabled:cursor-default"
            >
              <span className="flex w-full items-center">
                <span
                  className={cn(
                    'h-px flex-1',
                    index === 0 ? 'bg-transparent' : index <= current ? 'bg-accent' : 'bg-line-strong',
                  )}
                />
                <span
                  className={cn(
                    'num flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-[11px] font-semibold',
                    active && 'border-accent bg-accent text-on-accent',
                    done && 'border-accent bg-accent/15 text-accent',
                    !active && !done && 'border-line-strong bg-surface-2 text-subtle',
                  )}
                >
                  {done ? <CheckIcon size={12} /> : index + 1}
                </span>
                <span
                  className={cn(
                    'h-px flex-1',
                    index === WIZARD_STEPS.length - 1
                      ? 'bg-transparent'
                      : index < current
                        ? 'bg-accent'
                        : 'bg-line-strong',
                  )}
                />
              </span>
              <span
                className={cn(
                  // Below 640 px only the number shows; the step's name is still the button's (screen readers).
                  'sr-only w-full px-0.5 text-[11px] leading-tight break-words sm:not-sr-only sm:block',
                  active ? 'font-medium text-fg' : 'text-muted group-enabled:group-hover:text-fg',
                )}
              >
                {t(`bots.wizard.steps.${name}`)}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

function StepBody({
  step,
  values,
  errors,
  onChange,
  accounts,
  strategies,
  account,
  distribution,
  onEdit,
  onCreateStrategy,
}: {
  step: WizardStep;
  values: BotFormValues;
  errors: FieldErrors<BotFormValues>;
  onChange: <K extends keyof BotFormValues>(name: K, value: BotFormValues[K]) => void;
  accounts: AccountOption[];
  strategies: StrategyOption[];
  account: AccountOption | undefined;
  distribution: Parameters<typeof VolumeFields>[0]['distribution'];
  onEdit: (step: WizardStep) => void;
  onCreateStrategy?: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const message = useRuleMessage();

  switch (step) {
    case 'name':
      return <NameFields values={values} errors={errors} onChange={onChange} />;
    case 'account':
      return accounts.length === 0 ? (
        <EmptyState
          title={t('bots.wizard.noAccounts')}
          description={t('bots.wizard.noAccountsHint')}
          actions={
            <Link to={paths.accounts} className={buttonClasses()}>
              {t('dashboard.empty.connectAccount')}
            </Link>
          }
        />
      ) : (
        <ChoiceCards
          label={t('bots.wizard.steps.account')}
          name="tradingAccountId"
          value={values.tradingAccountId}
          onChange={(id) => onChange('tradingAccountId', id)}
          error={message(errors.tradingAccountId)}
          options={accounts.map((option) => ({
            value: option.id,
            title: option.nickname,
            description: (
              <span className="flex flex-wrap items-center gap-1.5">
                {option.exchange === 'paper' ? (
                  <Badge tone="info" glyph="◇">
                    {t('accounts.paper')}
                  </Badge>
                ) : (
                  <span>{option.exchange}</span>
                )}
                <Badge>{t(`accounts.marketType.${option.marketType}`)}</Badge>
                <span>{t('bots.wizard.botCount', { count: option.botCount })}</span>
                {option.status === 'error' ? (
                  <Badge tone="danger" glyph="!">
                    {t('accounts.status.error')}
                  </Badge>
                ) : null}
              </span>
            ),
            meta: (
              <span className="num text-sm text-fg">
                {format.decimal(option.usdtBalance)} <span className="text-xs text-subtle">USDT</span>
              </span>
            ),
          }))}
        />
      );
    case 'strategy':
      return strategies.length === 0 ? (
        <EmptyState
          title={t('bots.wizard.noStrategies')}
          description={t('bots.wizard.noStrategiesHint')}
          actions={
            onCreateStrategy ? (
              <Button onClick={onCreateStrategy} icon={<PlusIcon />}>
                {t('strategies.form.open')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <ChoiceCards
          label={t('bots.wizard.steps.strategy')}
          name="strategyId"
          value={values.strategyId}
          onChange={(id) => onChange('strategyId', id)}
          error={message(errors.strategyId)}
          options={strategies.map((option) => ({
            value: option.id,
            disabled: option.status === 'retired',
            title: option.nickname,
            description: (
              <span className="flex flex-wrap items-center gap-1.5">
                <span className="font-mono">{option.strategyKey}</span>
                <span>·</span>
                <span>
                  {option.tradeCurrency}/{option.stableCoin} · {timeFrameLabel(t, option.timeFrame)}
                </span>
                {option.isPublic ? (
                  <Badge tone="info" glyph="◈">
                    {t('strategies.visibility.public')}
                  </Badge>
                ) : (
                  <Badge glyph="◆">{t('strategies.visibility.private')}</Badge>
                )}
              </span>
            ),
            meta:
              option.status === 'active' ? null : (
                <Badge tone={option.status === 'paused' ? 'warning' : 'neutral'}>
                  {t(`strategies.status.${option.status}`)}
                </Badge>
              ),
          }))}
        />
      );
    case 'config':
      return <ConfigFields values={values} errors={errors} onChange={onChange} />;
    case 'volume':
      return (
        <VolumeFields
          values={values}
          errors={errors}
          onChange={onChange}
          account={account}
          distribution={distribution}
        />
      );
    case 'release':
      return (
        <ChoiceCards
          label={t('bots.wizard.steps.release')}
          name="release"
          value={values.release}
          onChange={(release) => onChange('release', release as BotFormValues['release'])}
          options={[
            { value: 'live', title: t('bots.release.live'), description: t('bots.release.liveHint') },
            { value: 'paused', title: t('bots.release.paused'), description: t('bots.release.pausedHint') },
          ]}
        />
      );
    case 'review':
      return <Review values={values} accounts={accounts} strategies={strategies} onEdit={onEdit} />;
  }
}

function Review({
  values,
  accounts,
  strategies,
  onEdit,
}: {
  values: BotFormValues;
  accounts: AccountOption[];
  strategies: StrategyOption[];
  onEdit: (step: WizardStep) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const allocationText = useAllocationText();
  const account = accounts.find((candidate) => candidate.id === values.tradingAccountId);
  const strategy = strategies.find((candidate) => candidate.id === values.strategyId);
  const stable = values.stableCoin.trim().toUpperCase();
  const futures = account?.marketType === 'future';
  const rows: Array<{ step: WizardStep; label: string; value: ReactNode }> = [
    { step: 'name', label: t('bots.fields.nickname'), value: values.nickname.trim() },
    {
      step: 'account',
      label: t('bots.fields.account'),
      value: account ? (
        <>
          {account.nickname}{' '}
          <span className="text-muted">
            · {account.exchange === 'paper' ? t('accounts.paper') : account.exchange} ·{' '}
            {t(`accounts.marketType.${account.marketType}`)}
          </span>
        </>
      ) : (
        '—'
      ),
    },
    {
      step: 'strategy',
      label: t('bots.fields.strategy'),
      value: strategy ? (
        <>
          {strategy.nickname}{' '}
          <span className="text-muted">
            · <span className="font-mono">{strategy.strategyKey}</span> ·{' '}
            {timeFrameLabel(t, strategy.timeFrame)}
          </span>
        </>
      ) : (
        '—'
      ),
    },
    {
      step: 'config',
      label: t('bots.fields.pair'),
      value: `${values.tradeCurrency.trim().toUpperCase()}/${stable}`,
    },
    {
      step: 'config',
      label: t('bots.fields.monthlyGoal'),
      value: values.monthlyGoalPercent.trim()
        ? format.percent(values.monthlyGoalPercent.replace(',', '.'))
        : t('bots.goal.none'),
    },
    {
      step: 'volume',
      label: t('bots.fields.volume'),
      value: allocationText({
        fixedAmount: values.sizing === 'fixed' ? values.fixedAmount.replace(',', '.') : null,
        portfolioPercent: values.sizing === 'portfolio' ? values.portfolioPercent.replace(',', '.') : null,
        leveragePercent: futures ? String(Number(values.leverage.replace(',', '.')) * 100) : '100',
        stableCoin: stable,
      }),
    },
    {
      step: 'release',
      label: t('bots.wizard.steps.release'),
      value: values.release === 'live' ? t('bots.release.live') : t('bots.release.paused'),
    },
  ];
  return (
    <dl className="divide-y divide-line rounded-md border border-line">
      {rows.map((row) => (
        <div key={row.label} className="flex items-center gap-3 px-3 py-2 text-sm">
          <dt className="w-36 shrink-0 text-muted">{row.label}</dt>
          <dd className="num min-w-0 flex-1 truncate text-fg">{row.value}</dd>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onEdit(row.step)}
            aria-label={t('bots.wizard.change', { field: row.label })}
          >
            {t('bots.wizard.changeShort')}
          </Button>
        </div>
      ))}
    </dl>
  );
}
