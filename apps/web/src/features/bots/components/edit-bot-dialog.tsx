import { type PathValue, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { toast } from '../../../components/ui/toast';
import type { Bot } from '@kairos/contract';
import { useBotsDistribution } from '../api/get-bots-distribution';
import { useUpdateBot } from '../api/update-bot';
import { STEP_FIELDS, botFormResolver, useBotFormValues } from '../utils/bot-form-schema';
import {
  type AccountOption,
  type BotFormValues,
  allocationOf,
  botToForm,
  toUpdateBotBody,
} from '../utils/bot-rules';
import { ConfigFields, NameFields, VolumeFields } from './bot-form-fields';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

/** What the edit dialog changes: the wizard's name, config and volume steps. */
const EDITED_FIELDS = [...STEP_FIELDS.name, ...STEP_FIELDS.config, ...STEP_FIELDS.volume];

/**
 * Name, pair, goal, leverage and volume of an existing bot. Its own allocation is left out of
 * the account's distribution, so keeping the same size is always allowed.
 */
export function EditBotDialog({
  bot,
  marketType,
  onClose,
}: {
  bot: Bot;
  /** The bot's account market type (leverage only on futures); unknown until accounts load. */
  marketType: AccountOption['marketType'] | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateBot();
  const distribution = useBotsDistribution(bot.tradingAccount.id, bot.id);
  const allocation = distribution.data ? allocationOf(distribution.data) : undefined;
  const account: AccountOption = {
    id: bot.tradingAccount.id,
    nickname: bot.tradingAccount.nickname,
    exchange: bot.tradingAccount.exchange,
    marketType: marketType ?? 'spot',
    usdtBalance: bot.tradingAccount.usdtBalance,
    botCount: 0,
    status: 'active',
  };

  const {
    control,
    setValue,
    clearErrors,
    trigger,
    getValues,
    formState: { errors },
  } = useForm<BotFormValues>({
    defaultValues: botToForm(bot),
    resolver: botFormResolver(() => ({ accounts: [account], strategies: [], allocation })),
  });
  const values = useBotFormValues(control);

  const change = <K extends keyof BotFormValues>(name: K, value: BotFormValues[K]) => {
    setValue(name, value as PathValue<BotFormValues, K>);
    clearErrors(name);
  };

  // One save for a double click (issue 21: it sent the edit twice): the second click lands before the busy
  // button is rendered.
  const singleFlight = useSingleFlight();
  const save = () =>
    singleFlight(async () => {
      if (!(await trigger(EDITED_FIELDS))) return;
      await update
        .mutateAsync({ id: bot.id, body: toUpdateBotBody(getValues(), account.marketType) })
        .then((saved) => {
          toast.success(t('bots.edit.saved', { name: saved.nickname }));
          onClose();
        }, ignoreRefusal);
    });

  const close = () => {
    if (!update.isPending) onClose();
  };

  return (
    <Dialog
      open
      size="lg"
      onClose={close}
      title={t('bots.edit.title', { name: bot.nickname })}
      description={t('bots.edit.description')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void save()} loading={update.isPending}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <form
        noValidate
        aria-label={t('bots.edit.title', { name: bot.nickname })}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        className="flex flex-col gap-5 py-2"
      >
        <NameFields values={values} errors={errors} onChange={change} compact />
        <ConfigFields values={values} errors={errors} onChange={change} compact />
        <VolumeFields
          values={values}
          errors={errors}
          onChange={change}
          account={account}
          compact
          distribution={{
            allocation,
            isPending: distribution.isPending,
            error: distribution.isError ? distribution.error : undefined,
            retry: () => void distribution.refetch(),
          }}
        />
        {update.isError ? <FormError error={update.error} /> : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
