import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useDeleteTradingAccount } from '../api/delete-trading-account';
import type { TradingAccount } from '../api/get-trading-accounts';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

/**
 * Says in one sentence what the deletion does, bots included. An account with bots is only
 * deleted when the user ticks that its bots go with it; otherwise the server refuses.
 */
export function DeleteAccountDialog({ account, onClose }: { account: TradingAccount; onClose: () => void }) {
  const { t } = useTranslation();
  const checkboxId = useId();
  const remove = useDeleteTradingAccount();
  const [withBots, setWithBots] = useState(false);
  const bots = account.botCount;
  // The server knows best: if it refuses because of bots the list did not count, offer the choice too.
  const refusedForBots = remove.error instanceof ApiError && remove.error.code === 'ACCOUNT_HAS_BOTS';
  const hasBots = bots > 0 || refusedForBots;

  const close = () => {
    if (!remove.isPending) onClose();
  };
  const singleFlight = useSingleFlight();
  const confirm = () =>
    singleFlight(() =>
      remove.mutateAsync({ id: account.id, bots: withBots ? 'delete' : 'refuse' }).then(() => {
        toast.success(t('accounts.delete.deleted', { name: account.nickname }));
        onClose();
      }, ignoreRefusal),
    );

  return (
    <Dialog
      open
      role="alertdialog"
      size="sm"
      onClose={close}
      title={t('accounts.delete.title', { name: account.nickname })}
      description={bots > 0 ? t('accounts.delete.withBots', { count: bots }) : t('accounts.delete.noBots')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={remove.isPending} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button
            variant="danger"
            onClick={confirm}
            loading={remove.isPending}
            disabled={hasBots && !withBots}
          >
            {bots > 0
              ? t('accounts.delete.confirmWithBots', { count: bots })
              : hasBots
                ? t('accounts.delete.confirmWithItsBots')
                : t('accounts.delete.confirm')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 pb-2">
        {hasBots ? (
          <label
            htmlFor={checkboxId}
            className="flex cursor-pointer items-start gap-2 rounded-md border border-loss/30 bg-loss/5 px-3 py-2 text-sm text-fg"
          >
            <input
              id={checkboxId}
              type="checkbox"
              checked={withBots}
              onChange={(event) => setWithBots(event.target.checked)}
              className="mt-0.5 accent-[var(--k-loss)]"
            />
            <span>
              {bots > 0
                ? t('accounts.delete.alsoDeleteBots', { count: bots })
                : t('accounts.delete.alsoDeleteItsBots')}
            </span>
          </label>
        ) : null}
        {remove.isError ? <FormError error={remove.error} /> : null}
      </div>
    </Dialog>
  );
}
