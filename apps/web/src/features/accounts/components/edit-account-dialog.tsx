import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import { PAPER_VENUE_ID, type Venue, sandboxKindOf } from '../api/get-exchanges';
import type { TradingAccount } from '../api/get-trading-accounts';
import {
  type EditAccountForm,
  editAccountFormSchema,
  toUpdateAccountBody,
  useUpdateTradingAccount,
} from '../api/update-trading-account';
import { VenueLabel } from './venue-label';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

const FORM_ID = 'edit-account-form';

/** Nickname, sandbox and key rotation of one account. Mounted per account, so the form starts fresh. */
export function EditAccountDialog({
  account,
  venue,
  onClose,
}: {
  account: TradingAccount;
  venue: Venue | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateTradingAccount();
  // One run for a double click (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const paper = account.exchange === PAPER_VENUE_ID;
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<EditAccountForm>({
    resolver: zodResolver(editAccountFormSchema),
    defaultValues: {
      nickname: account.nickname,
      sandbox: account.sandbox,
      rotate: false,
      apiKey: '',
      apiSecret: '',
      passphrase: '',
      needsPassphrase: venue?.needsPassphrase ?? false,
    },
  });
  const rotate = useWatch({ control, name: 'rotate' });
  const sandbox = useWatch({ control, name: 'sandbox' });
  const sandboxKind = sandboxKindOf(venue, account.marketType);

  const close = () => {
    if (!update.isPending) onClose();
  };

  const onSubmit = (form: EditAccountForm) => {
    const body = toUpdateAccountBody(form, account);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    void singleFlight(() =>
      update.mutateAsync({ id: account.id, body }).then((saved) => {
        toast.success(t('accounts.edit.saved', { name: saved.nickname }));
        onClose();
      }, ignoreRefusal),
    );
  };

  return (
    <Dialog
      open
      onClose={close}
      title={t('accounts.edit.title', { name: account.nickname })}
      description={<VenueLabel account={account} venueName={venue?.name} />}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={FORM_ID} loading={update.isPending}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        noValidate
        aria-label={t('accounts.edit.title', { name: account.nickname })}
        onSubmit={(event) => void handleSubmit(onSubmit)(event)}
        className="flex flex-col gap-4 py-2"
      >
        <Input
          label={t('accounts.fields.nickname')}
          maxLength={60}
          autoComplete="off"
          error={errors.nickname?.message}
          {...register('nickname')}
        />
        {paper ? null : (
          <>
            <div className="flex items-center justify-between gap-3 rounded-md border border-line bg-surface-2 px-3 py-2">
              <div>
                <p className="text-xs text-muted">{t('accounts.fields.currentKey')}</p>
                <p className="font-mono text-sm text-fg">{account.apiKeyMask ?? '—'}</p>
              </div>
              <Button
                variant={rotate ? 'ghost' : 'secondary'}
                size="sm"
                onClick={() => setValue('rotate', !rotate)}
                aria-expanded={rotate}
              >
                {rotate ? t('accounts.edit.keepKeys') : t('accounts.edit.rotateKeys')}
              </Button>
            </div>
            {rotate ? (
              <fieldset className="flex flex-col gap-4 rounded-md border border-line p-3">
                <legend className="px-1 text-xs font-medium text-muted">{t('accounts.edit.newKeys')}</legend>
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
                <p className="text-xs text-subtle">{t('accounts.edit.rotateHint')}</p>
              </fieldset>
            ) : null}
            {sandboxKind || account.sandbox ? (
              <Toggle
                checked={sandbox}
                onChange={(checked) => setValue('sandbox', checked)}
                label={t('accounts.fields.sandbox')}
                description={
                  sandboxKind
                    ? t(`accounts.connect.testnet.${sandboxKind}Toggle`)
                    : t('accounts.connect.sandboxHint')
                }
              />
            ) : null}
          </>
        )}
        {update.isError ? <FormError error={update.error} /> : null}
      </form>
    </Dialog>
  );
}
