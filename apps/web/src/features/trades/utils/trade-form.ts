import {
  MAX_TAKE_PROFITS,
  VALIDATION_MESSAGES,
  amountSchema,
  priceSchema,
  takeProfitSizesFit,
} from '@kairos/contract';
import { z } from 'zod';
import { parseLocaleNumber } from '../../../lib/parse-number';
import type { CreateTradeBody } from '../api/create-trade';
import { toDecimal } from './trade-figures';

/** Messages of our own rules are translation keys; the spec §5 sentences stay sentences. */
export const TRADE_FORM_MESSAGES = {
  distance: 'trades.form.errors.distance',
  size: 'trades.form.errors.size',
  sizes: 'trades.form.errors.sizes',
  stopLoss: 'trades.form.errors.stopLoss',
} as const;

const DECIMAL = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
const isPositive = (value: string) => DECIMAL.test(value.trim()) && Number(toDecimal(value)) > 0;

const percent = (message: string) => z.string().refine(isPositive, message);

/**
 * A decimal typed in the user's language (issue 21: "1,000" is a thousand in English, "1 000,5" in French),
 * then held to the contract's rule; a text that is no number in that language is `message`.
 */
function readTyped(
  value: string,
  locale: string,
  schema: typeof amountSchema,
  message: string,
  ctx: z.RefinementCtx,
): string {
  const plain = parseLocaleNumber(value, locale);
  const checked = schema.safeParse(plain ?? value);
  if (plain !== null && checked.success) return checked.data;
  ctx.addIssue({
    code: 'custom',
    message: value.trim() === '' ? (checked.error?.issues[0]?.message ?? message) : message,
  });
  return z.NEVER;
}

/** The manual trade form's rules, its numbers read as `locale` writes them. */
export function tradeFormSchemaFor(locale: string) {
  return z
    .object({
      accountId: z.string().min(1, VALIDATION_MESSAGES.required),
      symbol: z.string().min(1, VALIDATION_MESSAGES.required),
      side: z.enum(['long', 'short']),
      /** Base quantity (spec §5: 'Please enter a valid amount'). */
      amount: z
        .string()
        .transform((value, ctx) => readTyped(value, locale, amountSchema, VALIDATION_MESSAGES.amount, ctx)),
      /** Empty: a market order; otherwise a limit price (spec §5: 'Please enter a valid price'). */
      price: z
        .string()
        .transform((value, ctx) =>
          value.trim() === '' ? null : readTyped(value, locale, priceSchema, VALIDATION_MESSAGES.price, ctx),
        ),
      takeProfits: z
        .array(
          z.object({
            percent: percent(TRADE_FORM_MESSAGES.distance),
            sizePercent: percent(TRADE_FORM_MESSAGES.size),
          }),
        )
        .max(MAX_TAKE_PROFITS),
      /** Empty: no stop-loss. */
      stopLossPercent: z
        .string()
        .refine(
          (value) => value.trim() === '' || (isPositive(value) && Number(toDecimal(value)) < 100),
          TRADE_FORM_MESSAGES.stopLoss,
        ),
      breakEvenAfterTp1: z.boolean(),
    })
    .superRefine((form, ctx) => {
      if (!takeProfitSizesFit(form.takeProfits)) {
        ctx.addIssue({ code: 'custom', path: ['takeProfits'], message: TRADE_FORM_MESSAGES.sizes });
      }
    });
}

/** English reading of numbers ("1,000" a thousand). */
export const tradeFormSchema = tradeFormSchemaFor('en-US');

export type TradeFormInput = z.input<typeof tradeFormSchema>;
export type TradeFormValues = z.output<typeof tradeFormSchema>;

export function emptyTradeForm(accountId = '', symbol = 'BTC/USDT'): TradeFormInput {
  return {
    accountId,
    symbol,
    side: 'long',
    amount: '',
    price: '',
    takeProfits: [],
    stopLossPercent: '',
    breakEvenAfterTp1: true,
  };
}

/** The `POST /api/trades` body: roles tp1..tpN in ladder order, decimals as strings. */
export function toCreateTradeBody(form: TradeFormValues): CreateTradeBody {
  return {
    accountId: form.accountId,
    symbol: form.symbol,
    side: form.side,
    amount: form.amount,
    ...(form.price ? { price: form.price } : {}),
    takeProfits: form.takeProfits.map((tp, index) => ({
      role: `tp${index + 1}`,
      percent: toDecimal(tp.percent),
      sizePercent: toDecimal(tp.sizePercent),
    })),
    ...(form.stopLossPercent.trim() ? { stopLossPercent: toDecimal(form.stopLossPercent) } : {}),
    breakEvenAfterTp1: form.breakEvenAfterTp1,
  };
}
