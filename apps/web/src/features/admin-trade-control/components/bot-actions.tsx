import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { useMoney } from '../../../lib/money';
import { splitSymbol } from '../../trades/utils/trade-figures';
import type { TradeControlBot } from '../api/get-strategy-trade-status';
import { type BotAction, useBotAction } from '../api/strategy-scope';
import { useOutcomeText } from './outcome-text';

/** One bot's own actions on trade control (issue 21): close its trade at market, pause it. */
export function BotActions({ bot }: { bot: TradeControlBot }) {
  const { t } = useTranslation();
  const outcomeText = useOutcomeText();
  const money = useMoney();
  const run = useBotAction();
  const names = { bot: bot.nickname, user: bot.userEmail };

  const act = async (action: BotAction) => {
    const kind = action === 'close-position' ? 'close' : 'pause';
    const trade = bot.trade;
    const quote = trade ? splitSymbol(trade.symbol).quote : '';
    const estimate =
      kind === 'close' && trade?.currentPrice
        ? t('tradeControl.bot.estimate', {
            price: money.price(trade.currentPrice, quote),
            pnl: money.pnl(trade.estimatedClosePnl, quote),
          })
        : null;
    const confirmed = await confirmAction({
      title: t(`tradeControl.bot.${kind}.title`, names),
      message: (
        <>
          {t(`tradeControl.bot.${kind}.message`, { ...names, symbol: trade?.symbol ?? '' })}
          {estimate ? <span className="num mt-2 block text-fg">{estimate}</span> : null}
        </>
      ),
      confirmLabel: t(`tradeControl.bot.${kind}.confirm`),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const outcome = await run.mutateAsync({ botId: bot.botId, action });
      const say =
        outcome.status === 'failed' ? toast.error : outcome.status === 'done' ? toast.success : toast.info;
      say(t(`tradeControl.bot.${kind}.label`), {
        description: `${bot.nickname}: ${outcomeText(outcome)}`,
      });
    } catch (error) {
      toast.error(t('tradeControl.bot.failed', names), { description: errorMessage(t, error) });
    }
  };

  return (
    <span className="flex flex-col items-end gap-1.5">
      {bot.trade ? (
        <Button
          size="sm"
          variant="danger"
          aria-label={t('tradeControl.bot.close.name', names)}
          disabled={run.isPending}
          onClick={() => void act('close-position')}
        >
          {t('tradeControl.bot.close.label')}
        </Button>
      ) : null}
      {bot.isActive ? (
        <Button
          size="sm"
          variant="secondary"
          aria-label={t('tradeControl.bot.pause.name', names)}
          disabled={run.isPending}
          onClick={() => void act('pause')}
        >
          {t('tradeControl.bot.pause.label')}
        </Button>
      ) : null}
    </span>
  );
}
