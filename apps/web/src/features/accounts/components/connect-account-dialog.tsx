import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { ApiError } from '../../../lib/api-error';
import { AlertIcon, InfoIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import {
  type ConnectAccountForm,
  connectAccountFormSchema,
  emptyConnectAccountForm,
  toCreateAccountBody,
  useCreateTradingAccount,
} from '../api/create-trading-account';
import { PAPER_VENUE_ID, type Venue, sandboxKindOf, useExchanges } from '../api/get-exchanges';
import type { TradingAccount } from '../api/get-trading-accounts';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const FORM_ID = 'connect-account-form';

export function ConnectAccountDialog({
  open,
  onClose,
  onConnected,
}: {
  open: boolean;
  onClose: () => void;
  onConnected?: (account: TradingAccount) => void;
}) {
  const { t } = useTranslation();
  const venues = useExchanges();
  const create = useCreateTradingAccount();
  // A double click on "Connect" connects one account.
  const singleFlight = useSingleFlight();

  const close = () => {
    if (create.isPending) return;
    create.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('accounts.connect.title')}
      description={t('accounts.connect.description')}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            form={FORM_ID}
            loading={create.isPending}
            disabled={!venues.data || venues.data.length === 0}
          >
            {create.isPending ? t('accounts.connect.submitting') : t('accounts.connect.submit')}
          </Button>
        </>
      }
    >
      {venues.isPending ? (
        <div className="flex flex-col gap-3 py-2" aria-busy="true">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-2/3" />
        </div>
      ) : venues.isError ? (
        <ErrorState error={venues.error} onRetry={() => void venues.refetch()} className="py-4" />
      ) : (
        <ConnectAccountFields
          venues={venues.data}
          error={create.isError ? create.error : undefined}
          onSubmit={(form) =>
            singleFlight(async () => {
              const account = await create.mutateAsync(toCreateAccountBody(form)).catch(ignoreRefusal);
              if (!account) return;
              toast.success(t('accounts.connect.connected', { name: account.nickname }));
              create.reset();
              onConnected?.(account);
              onClose();
            })
          }
        />
      )}
    </Dialog>
  );
}

/** The form itself: a venue picker (paper first), then what that venue needs. */
export function ConnectAccountFields({
  venues,
  error,
  onSubmit,
}: {
  venues: Venue[];
  /** The server's refusal (a venue's reason, say), shown under the form. */
  error?: unknown;
  onSubmit: (form: ConnectAccountForm) => void;
}) {
  const { t } = useTranslation();
  const first = venues[0];
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<ConnectAccountForm>({
    resolver: zodResolver(connectAccountFormSchema),
    defaultValues: {
      ...emptyConnectAccountForm,
      exchange: first?.id ?? PAPER_VENUE_ID,
      marketType: first?.marketTypes[0] ?? 'spot',
      needsPassphrase: first?.needsPassphrase ?? false,
    },
  });
  const exchange = useWatch({ control, name: 'exchange' });
  const marketType = useWatch({ control, name: 'marketType' });
  const sandbox = useWatch({ control, name: 'sandbox' });
  const acknowledged = useWatch({ control, name: 'withdrawRiskAcknowledged' });
  // Asked only once the venue could not say whether the key can withdraw (issue 20).
  const askWithdrawRisk = error instanceof ApiError && error.code === 'WITHDRAW_PERMISSION_UNKNOWN';
  const venue = venues.find((candidate) => candidate.id === exchange);
  const paper = exchange === PAPER_VENUE_ID;
  const sandboxKind = sandboxKindOf(venue, marketType);
  const venueName = (option: Venue) =>
    option.id === PAPER_VENUE_ID ? t('accounts.venue.paper') : option.name;

  const exchangeField = register('exchange', {
    onChange: (event: { target: { value: string } }) => {
      const next = venues.find((candidate) => candidate.id === event.target.value);
      setValue('marketType', next?.marketTypes[0] ?? 'spot');
      setValue('needsPassphrase', next?.needsPassphrase ?? false);
      setValue('sandbox', false);
    },
  });
  const marketTypeField = register('marketType', {
    onChange: (event: { target: { value: ConnectAccountForm['marketType'] } }) => {
      if (!sandboxKindOf(venue, event.target.value)) setValue('sandbox', false);
    },
  });

  return (
    <form
      id={FORM_ID}
      noValidate
      aria-label={t('accounts.connect.title')}
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      className="flex flex-col gap-4 py-2"
    >
      <Select
        label={t('accounts.fields.venue')}
        options={venues.map((option) => ({ value: option.id, label: venueName(option) }))}
        error={errors.exchange?.message}
        {...exchangeField}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label={t('accounts.fields.nickname')}
          placeholder={paper ? t('accounts.paper') : venue?.name}
          maxLength={60}
          autoComplete="off"
          error={errors.nickname?.message}
          {...register('nickname')}
        />
        <Select
          label={t('accounts.fields.marketType')}
          options={(venue?.marketTypes ?? ['spot']).map((type) => ({
            value: type,
            label: t(`accounts.marketType.${type}`),
          }))}
          {...marketTypeField}
        />
      </div>
      {!paper && venue ? (
        <TestnetAvailability venueName={venue.name} marketType={marketType} kind={sandboxKind} />
      ) : null}

      {paper ? (
        <Input
          label={t('accounts.fields.startingBalance')}
          hint={t('accounts.connect.paperHint')}
          inputMode="decimal"
          numeric
          suffix="USDT"
          error={errors.startingBalance?.message}
          {...register('startingBalance')}
        />
      ) : (
        <>
          <p className="flex items-start gap-2 rounded-md border border-info/30 bg-info/10 px-3 py-2 text-xs text-fg">
            <InfoIcon className="mt-px shrink-0 text-info" />
            <span>{t('accounts.connect.keysHint')}</span>
          </p>
          <Input
            label={t('accounts.fields.apiKey')}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            error={errors.apiKey?.message}
            {...register('apiKey')}
          />
          <Input
            label={t('accounts.fields.apiSecret')}
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            className="font-mono"
            error={errors.apiSecret?.message}
            {...register('apiSecret')}
          />
          {venue?.needsPassphrase ? (
            <Input
              label={t('accounts.fields.passphrase')}
              type="password"
              autoComplete="new-password"
              error={errors.passphrase?.message}
              {...register('passphrase')}
            />
          ) : null}
          <Toggle
            checked={sandbox && sandboxKind !== undefined}
            onChange={(checked) => setValue('sandbox', checked)}
            disabled={!sandboxKind}
            label={t('accounts.fields.sandbox')}
            description={
              sandboxKind
                ? t(`accounts.connect.testnet.${sandboxKind}Toggle`)
                : t('accounts.connect.testnet.unavailable', {
                    venue: venue?.name ?? exchange,
                    market: t(`accounts.marketType.${marketType}`),
                  })
            }
          />
        </>
      )}

      {error ? <FormError error={error} /> : null}
      {askWithdrawRisk ? (
        <Toggle
          checked={acknowledged}
          onChange={(checked) => setValue('withdrawRiskAcknowledged', checked)}
          label={t('accounts.connect.withdrawRisk.label')}
          description={t('accounts.connect.withdrawRisk.description')}
        />
      ) : null}
    </form>
  );
}

/** Whether the picked venue has a testnet or demo trading for the picked market, said before any key is typed. */
function TestnetAvailability({
  venueName,
  marketType,
  kind,
}: {
  venueName: string;
  marketType: ConnectAccountForm['marketType'];
  kind: ReturnType<typeof sandboxKindOf>;
}) {
  const { t } = useTranslation();
  const params = { venue: venueName, market: t(`accounts.marketType.${marketType}`) };
  return kind ? (
    <p
      className="flex items-start gap-2 rounded-md border border-info/30 bg-info/10 px-3 py-2 text-xs text-fg"
      data-testid="testnet-availability"
    >
      <InfoIcon className="mt-px shrink-0 text-info" />
      <span>{t(`accounts.connect.testnet.${kind}`, params)}</span>
    </p>
  ) : (
    <p
      className="flex items-start gap-2 rounded-md border border-warn/30 bg-warn/5 px-3 py-2 text-xs text-fg"
      data-testid="testnet-availability"
    >
      <AlertIcon size={14} className="mt-px shrink-0 text-warn" />
      <span>{t('accounts.connect.testnet.none', params)}</span>
    </p>
  );
}
