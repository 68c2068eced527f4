import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormError } from '../../../components/ui/form-error';
import { toast } from '../../../components/ui/toast';
import type { Bot } from '@kairos/contract';
import { useStopBot } from '../api/stop-bot';
import { ChoiceCards } from './choice-cards';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';

/**
 * Stopping asks what to do with an open position: close it at market (the default) or keep it.
 * With no position there is nothing to ask beyond the confirmation.
 */
export function StopBotDialog({ bot, onClose }: { bot: Bot; onClose: () => void }) {
  const { t } = useTranslation();
  const stop = useStopBot();
  const holding = bot.position !== 'out' || bot.isTrading;
  const [choice, setChoice] = useState<'close' | 'keep'>('close');

  const close = () => {
    if (!stop.isPending) onClose();
  };
  const singleFlight = useSingleFlight();
  const confirm = () =>
    singleFlight(() =>
      stop.mutateAsync({ id: bot.id, closePosition: holding ? choice === 'close' : true }).then(() => {
        toast.success(
          t(holding && choice === 'close' ? 'bots.stop.stoppedClosed' : 'bots.stop.stopped', {
            name: bot.nickname,
          }),
        );
        onClose();
      }, ignoreRefusal),
    );

  return (
    <Dialog
      open
      role="alertdialog"
      size="md"
      onClose={close}
      title={t('bots.stop.title', { name: bot.nickname })}
      description={
        holding
          ? t('bots.stop.holding', {
              position: t(`position.${bot.position === 'out' ? 'long' : bot.position}`),
            })
          : t('bots.stop.flat')
      }
      footer={
        <>
          {/* Focus opens on the position's choice when there is one (the dialog's first field), else on Cancel. */}
          <Button variant="secondary" onClick={close} disabled={stop.isPending}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" onClick={confirm} loading={stop.isPending}>
            {holding && choice === 'close' ? t('bots.stop.confirmClose') : t('bots.stop.confirm')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 pb-2">
        {holding ? (
          <ChoiceCards
            label={t('bots.stop.question')}
            name="close-position"
            value={choice}
            onChange={(value) => setChoice(value as 'close' | 'keep')}
            options={[
              { value: 'close', title: t('bots.stop.close'), description: t('bots.stop.closeHint') },
              { value: 'keep', title: t('bots.stop.keep'), description: t('bots.stop.keepHint') },
            ]}
          />
        ) : null}
        {stop.isError ? <FormError error={stop.error} /> : null}
      </div>
    </Dialog>
  );
}
