import type { BotActionOutcome } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { translateApiMessage } from '../../../i18n/translate-message';

/**
 * What one bot's action came to, in the user's language from its code and params (issue 21): a refusal nested
 * in it (a failed push's `error`) said the same way, a venue's own words as they came. A code this build does
 * not know shows the server's English `message`.
 */
export function useOutcomeText(): (outcome: Pick<BotActionOutcome, 'code' | 'params' | 'message'>) => string {
  const { t } = useTranslation();
  return (outcome) => translateApiMessage(t, outcome.code, outcome.params, outcome.message);
}
