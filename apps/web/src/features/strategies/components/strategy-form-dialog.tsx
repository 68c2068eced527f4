import { MAX_TAKE_PROFITS, takeProfitSizeTotal, takeProfitSizesFit } from '@kairos/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import { useTranslateMessage } from '../../../i18n/translate-message';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import {
  STRATEGY_STATUSES,
  type StrategyForm,
  TIME_FRAMES,
  emptyStrategyForm,
  strategyFormSchema,
  strategyToForm,
  toStrategyBody,
  useCreateStrategy,
} from '../api/create-strategy';
import type { Strategy } from '../api/get-strategies';
import { useUpdateStrategy } from '../api/update-strategy';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const FORM_ID = 'strategy-form';

/** Our rules carry translation keys; spec §5 sentences pass through (the fields translate them). */
function useFieldMessage() {
  const { t } = useTranslation();
  return (message: string | undefined) => (message?.startsWith('strategies.') ? t(message) : message);
}

/** Create a strategy, or edit one the user owns. Mounted per strategy so the form starts fresh. */
export function StrategyFormDialog({
  strategy,
  onClose,
  onSaved,
}: {
  strategy?: Strategy;
  onClose: () => void;
  onSaved?: (strategy: Strategy) => void;
}) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const create = useCreateStrategy();
  const update = useUpdateStrategy();
  const saving = create.isPending || update.isPending;
  const failure = create.error ?? update.error;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<StrategyForm>({
    resolver: zodResolver(strategyFormSchema),
    defaultValues: strategy ? strategyToForm(strategy) : emptyStrategyForm,
  });
  const breakEven = useWatch({ control, name: 'breakEvenAfterTp1' });

  const save = async (form: StrategyForm) => {
    const body = toStrategyBody(form);
    const done = (saved: Strategy) => {
      toast.success(
        t(strategy ? 'strategies.form.saved' : 'strategies.form.created', { name: saved.nickname }),
      );
      // Closing first: onSaved may open the next dialog (the webhook of a new strategy).
      onClose();
      onSaved?.(saved);
    };
    const saved = await (
      strategy ? update.mutateAsync({ id: strategy.id, body }) : create.mutateAsync(body)
    ).catch(ignoreRefusal);
    if (saved) done(saved);
  };
  // A double click on "save" saves once.
  const singleFlight = useSingleFlight();
  const onSubmit = (form: StrategyForm) => singleFlight(() => save(form));

  const close = () => {
    if (!saving) onClose();
  };

  return (
    <Dialog
      open
      size="lg"
      onClose={close}
      title={
        strategy
          ? t('strategies.form.editTitle', { name: strategy.nickname })
          : t('strategies.form.createTitle')
      }
      description={t('strategies.form.description')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={FORM_ID} loading={saving}>
            {strategy ? t('common.save') : t('strategies.form.create')}
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        noValidate
        aria-label={
          strategy
            ? t('strategies.form.editTitle', { name: strategy.nickname })
            : t('strategies.form.createTitle')
        }
        onSubmit={(event) => void handleSubmit(onSubmit)(event)}
        className="flex flex-col gap-5 py-2"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label={t('strategies.fields.nickname')}
            maxLength={80}
            autoComplete="off"
            error={fieldMessage(errors.nickname?.message)}
            {...register('nickname')}
          />
          <Input
            label={t('strategies.fields.key')}
            hint={t('strategies.form.keyHint')}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            maxLength={64}
            error={fieldMessage(errors.strategyKey?.message)}
            {...register('strategyKey')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-4">
          <Input
            label={t('strategies.fields.tradeCurrency')}
            autoComplete="off"
            className="uppercase"
            maxLength={12}
            error={fieldMessage(errors.tradeCurrency?.message)}
            {...register('tradeCurrency')}
          />
          <Input
            label={t('strategies.fields.stableCoin')}
            autoComplete="off"
            className="uppercase"
            maxLength={12}
            error={fieldMessage(errors.stableCoin?.message)}
            {...register('stableCoin')}
          />
          <Select
            label={t('strategies.fields.timeFrame')}
            options={TIME_FRAMES.map((frame) => ({ value: frame, label: timeFrameLabel(t, frame) }))}
            {...register('timeFrame')}
          />
          <Select
            label={t('strategies.fields.status')}
            options={STRATEGY_STATUSES.map((status) => ({
              value: status,
              label: t(`strategies.status.${status}`),
            }))}
            {...register('status')}
          />
        </div>

        <TakeProfitLadderEditor control={control} register={register} errors={errors} />

        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label={t('strategies.fields.stopLoss')}
            hint={t('strategies.form.stopLossHint')}
            inputMode="decimal"
            numeric
            suffix="%"
            error={fieldMessage(errors.stopLossPercent?.message)}
            {...register('stopLossPercent')}
          />
          <Input
            label={t('strategies.fields.maxLag')}
            hint={t('strategies.form.maxLagHint')}
            inputMode="numeric"
            numeric
            suffix={t('strategies.form.seconds')}
            error={fieldMessage(errors.maxLagSeconds?.message)}
            {...register('maxLagSeconds')}
          />
          <Input
            label={t('strategies.fields.stopLimitOffset')}
            hint={t('strategies.form.stopLimitOffsetHint')}
            inputMode="decimal"
            numeric
            suffix="%"
            error={fieldMessage(errors.stopLimitOffsetPercent?.message)}
            {...register('stopLimitOffsetPercent')}
          />
        </div>
        <Toggle
          checked={breakEven}
          onChange={(checked) => setValue('breakEvenAfterTp1', checked)}
          label={t('strategies.fields.breakEven')}
          description={t('strategies.form.breakEvenHint')}
        />
        {failure ? <FormError error={failure} /> : null}
      </form>
    </Dialog>
  );
}

/** TP1..TPn: distance from the entry and share of the position, with the running total. */
function TakeProfitLadderEditor({
  control,
  register,
  errors,
}: {
  control: Control<StrategyForm>;
  register: UseFormRegister<StrategyForm>;
  errors: FieldErrors<StrategyForm>;
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
      <legend className="ml-3 px-1 text-xs font-medium text-muted">
        {t('strategies.fields.takeProfits')}
      </legend>
      <div className="flex flex-col gap-2 px-3 pt-1 pb-3">
        {fields.length === 0 ? (
          <p className="py-2 text-sm text-subtle">{t('strategies.form.noTakeProfits')}</p>
        ) : null}
        {fields.length > 0 ? (
          <div
            aria-hidden="true"
            className="grid grid-cols-[3rem_1fr_1fr_2rem] gap-2 text-[11px] text-subtle"
          >
            <span />
            <span>{t('strategies.form.distance')}</span>
            <span>{t('strategies.form.size')}</span>
          </div>
        ) : null}
        {fields.map((field, index) => (
          <div key={field.id} className="grid grid-cols-[3rem_1fr_1fr_2rem] items-start gap-2">
            <span className="num pt-2 text-sm font-medium text-fg">TP{index + 1}</span>
            <Input
              aria-label={t('strategies.form.tpDistance', { name: `TP${index + 1}` })}
              inputMode="decimal"
              numeric
              suffix="%"
              error={fieldMessage(errors.takeProfits?.[index]?.percent?.message)}
              {...register(`takeProfits.${index}.percent`)}
            />
            <Input
              aria-label={t('strategies.form.tpSize', { name: `TP${index + 1}` })}
              inputMode="decimal"
              numeric
              suffix={t('strategies.form.ofPosition')}
              error={fieldMessage(errors.takeProfits?.[index]?.sizePercent?.message)}
              {...register(`takeProfits.${index}.sizePercent`)}
            />
            <Button
              variant="ghost"
              size="sm"
              className="mt-1"
              onClick={() => remove(index)}
              aria-label={t('strategies.form.removeTp', { name: `TP${index + 1}` })}
              icon={<CloseIcon size={14} />}
            />
          </div>
        ))}
        <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
          <Button
            variant="secondary"
            size="sm"
            icon={<PlusIcon size={14} />}
            disabled={fields.length >= MAX_TAKE_PROFITS}
            onClick={() => append({ percent: '', sizePercent: '' })}
          >
            {t('strategies.form.addTp')}
          </Button>
          <span className={cn('num text-xs', fits ? 'text-muted' : 'text-loss')}>
            {t('strategies.form.sizeTotal', { total: format.percent(total) })}
          </span>
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
