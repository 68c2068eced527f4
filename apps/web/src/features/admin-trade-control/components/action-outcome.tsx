import { useTranslation } from 'react-i18next';
import { Card, CardHeader } from '../../../components/ui/card';
import { useFormatters } from '../../../lib/use-formatters';
import type { TradeControlBot } from '../api/get-strategy-trade-status';
import type { TradeControlResult } from '../api/run-trade-control-action';
import { useOutcomeText } from './outcome-text';
import { BotOutcomeBadge } from './trade-control-labels';

/** After an action: how many bots it was done for, skipped or failed, then each bot's message in the user's language. */
export function ActionOutcome({
  result,
  at,
  bots,
  onDismiss,
}: {
  result: TradeControlResult;
  at: Date;
  bots: TradeControlBot[];
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const outcomeText = useOutcomeText();
  const botsById = new Map(bots.map((bot) => [bot.botId, bot]));
  return (
    <Card aria-label={t('tradeControl.outcome.title')}>
      <CardHeader
        title={t('tradeControl.outcome.heading', {
          action: t(`tradeControl.actions.${result.action}.label`),
        })}
        description={format.dateTime(at)}
        actions={
          <button type="button" onClick={onDismiss} className="text-xs text-muted hover:text-fg">
            {t('common.dismiss')}
          </button>
        }
      />
      <div className="grid grid-cols-3 divide-x divide-line border-b border-line">
        {(['done', 'skipped', 'failed'] as const).map((status) => (
          <div key={status} className="px-4 py-3">
            <p className="text-xs text-muted">{t(`tradeControl.outcome.${status}`)}</p>
            <p
              className={`num mt-0.5 text-xl font-semibold ${
                status === 'failed' && result.failed > 0 ? 'text-loss' : 'text-fg'
              }`}
            >
              {result[status]}
            </p>
          </div>
        ))}
      </div>
      {result.outcomes.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted">{t('tradeControl.outcome.noBots')}</p>
      ) : (
        <ul className="divide-y divide-line">
          {result.outcomes.map((outcome) => {
            const bot = botsById.get(outcome.botId);
            return (
              <li
                key={outcome.botId}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm"
              >
                <BotOutcomeBadge status={outcome.status} />
                <span className="font-medium text-fg">{bot?.nickname ?? outcome.botId}</span>
                {bot ? <span className="text-xs text-muted">{bot.userEmail}</span> : null}
                <span className="basis-full text-xs break-words text-muted sm:ml-auto sm:basis-auto">
                  {outcomeText(outcome)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
