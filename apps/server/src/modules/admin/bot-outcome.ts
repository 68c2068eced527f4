import {
  apiMessage,
  type ApiMessageArgs,
  type ApiMessageCode,
  type ApiParams,
  type BotActionOutcome,
} from '@kairos/contract';
import { innerRefusal } from '../../engine/last-error';

/** What one bot's action came to, without whose bot it was. */
export type BotResult = Omit<BotActionOutcome, 'botId' | 'userId'>;

/**
 * One bot's outcome said by its catalogue code (issue 21): the English `message` built from the same code
 * and params the web says it from in the user's language. `params` is `{}` when the sentence has none.
 */
export function botResult<C extends ApiMessageCode>(
  status: BotResult['status'],
  orderIds: string[],
  code: C,
  ...[params]: ApiMessageArgs<C>
): BotResult {
  const message = apiMessage(code, ...([params] as ApiMessageArgs<C>));
  return { status, message, code, params: { ...(params as ApiParams | undefined) }, orderIds };
}

/** A bot's action that threw: said by the error's own code when it has one, else as its text came. */
export function failedResult(e: unknown): BotResult {
  const inner = innerRefusal(e);
  if (inner.code)
    return {
      status: 'failed',
      message: inner.message,
      code: inner.code,
      params: { ...inner.params },
      orderIds: [],
    };
  return botResult('failed', [], 'BOT_ACTION_FAILED', { reason: inner.message });
}
