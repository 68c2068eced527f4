import {
  VALIDATION_MESSAGES,
  amountSchema,
  botCreateBody,
  compareDecimals,
  required,
} from '@kairos/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { type Control, type FieldErrors, type Resolver, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  type AccountOption,
  type Allocation,
  type BotFormValues,
  type StrategyOption,
  WIZARD_STEPS,
  type WizardStep,
  emptyBotForm,
  toLeveragePercent,
  typedDecimal,
} from './bot-rules';

/**
 * The bot form's rules (spec §5): the create-bot request's own field rules from the contract, with the
 * form's messages — spec §5 sentences, or `bots.errors.*` keys the fields translate with their figures
 * (the leverage ceiling, what the account has left).
 */
const request = botCreateBody.out.shape;

/** What the rules need beyond the form: the choices offered and the chosen account's allocation. */
export interface BotFormContext {
  accounts: AccountOption[];
  strategies: StrategyOption[];
  /** The chosen account's distribution, once loaded. */
  allocation?: Allocation;
}

/** The fields each wizard step asks for; the review and the release ask for none of their own. */
export const STEP_FIELDS: Record<WizardStep, ReadonlyArray<keyof BotFormValues>> = {
  name: ['nickname'],
  account: ['tradingAccountId'],
  strategy: ['strategyId'],
  config: ['tradeCurrency', 'stableCoin', 'monthlyGoalPercent'],
  volume: ['leverage', 'portfolioPercent', 'fixedAmount'],
  release: [],
  review: [],
};

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** Something typed that must be there, then pass one of the request's rules (said with `message`). */
const requiredAnd = (rule: z.ZodType, message: string) =>
  required.pipe(z.string().refine((value) => accepts(rule, value), message));

/** Optional: empty means none; otherwise a non-negative decimal the request takes as its goal. */
const monthlyGoal = z.string().superRefine((value, ctx) => {
  if (!value.trim()) return;
  const goal = typedDecimal(value);
  if (goal === undefined) ctx.addIssue({ code: 'custom', message: VALIDATION_MESSAGES.amount });
  else if (!accepts(request.monthlyGoalPercent, goal))
    ctx.addIssue({ code: 'custom', message: 'bots.errors.goalRange' });
});

/**
 * The figures of the allocation come from a division (fixed amounts as a share of the balance): they are
 * taken to 9 decimals, then compared exactly with what was typed.
 */
const allocationFigure = (figure: number) => figure.toFixed(9);

/**
 * Step "leverage and volume": leverage on a futures account (from 1× to what the request allows), then
 * the chosen sizing — an amount (spec §5), a share the request takes, never more than the account has left.
 */
function volumeIssues(form: BotFormValues, { accounts, allocation }: BotFormContext) {
  const issues: Array<{ path: keyof BotFormValues; message: string }> = [];
  const account = accounts.find((candidate) => candidate.id === form.tradingAccountId);
  if (account?.marketType === 'future') {
    const leverage = typedDecimal(form.leverage);
    if (!form.leverage.trim()) issues.push({ path: 'leverage', message: VALIDATION_MESSAGES.required });
    else if (
      leverage === undefined ||
      compareDecimals(leverage, '1') < 0 ||
      !accepts(request.leveragePercent, toLeveragePercent(leverage, 'future'))
    ) {
      issues.push({ path: 'leverage', message: 'bots.errors.leverageRange' });
    }
  }

  const portfolio = form.sizing === 'portfolio';
  const path = portfolio ? 'portfolioPercent' : 'fixedAmount';
  const typed = amountSchema.safeParse(form[path]);
  let message: string | undefined;
  if (!typed.success) message = typed.error.issues[0]?.message ?? VALIDATION_MESSAGES.amount;
  else if (portfolio && !accepts(request.portfolioPercent, typed.data)) message = 'bots.errors.percentRange';
  else if (!allocation) message = 'bots.errors.allocationUnknown';
  else {
    const available = portfolio ? allocation.availablePercent : allocation.availableAmount;
    if (compareDecimals(typed.data, allocationFigure(available)) > 0) {
      message = portfolio ? 'bots.errors.overAllocatedPercent' : 'bots.errors.overAllocatedAmount';
    }
  }
  if (message) issues.push({ path, message });
  return issues;
}

/** The whole bot form: the wizard validates a step's fields at a time, the edit dialog its own. */
export function botFormSchema(context: BotFormContext) {
  const { accounts, strategies } = context;
  return z
    .object({
      nickname: requiredAnd(request.nickname, 'bots.errors.nameTooLong'),
      tradingAccountId: z
        .string()
        .refine((id) => accounts.some((account) => account.id === id), VALIDATION_MESSAGES.required),
      strategyId: z.string().superRefine((id, ctx) => {
        const strategy = strategies.find((candidate) => candidate.id === id);
        if (!strategy) ctx.addIssue({ code: 'custom', message: VALIDATION_MESSAGES.required });
        else if (strategy.status === 'retired')
          ctx.addIssue({ code: 'custom', message: 'bots.errors.strategyRetired' });
      }),
      tradeCurrency: requiredAnd(request.tradeCurrency, 'bots.errors.currencyCode'),
      stableCoin: requiredAnd(request.stableCoin, 'bots.errors.currencyCode'),
      monthlyGoalPercent: monthlyGoal,
      leverage: z.string(),
      sizing: z.enum(['portfolio', 'fixed']),
      portfolioPercent: z.string(),
      fixedAmount: z.string(),
      release: z.enum(['live', 'paused']),
    })
    .superRefine((form, ctx) => {
      for (const { path, message } of volumeIssues(form, context)) {
        ctx.addIssue({ code: 'custom', path: [path], message });
      }
    }) satisfies z.ZodType<BotFormValues, BotFormValues>;
}

/**
 * react-hook-form's resolver for the bot form, with the context as it is when the form is validated
 * (the allocation arrives once the chosen account's distribution has loaded).
 */
export function botFormResolver(context: () => BotFormContext): Resolver<BotFormValues> {
  return (values, resolverContext, options) =>
    zodResolver(botFormSchema(context()))(values, resolverContext, options);
}

/** The first step with a problem, for "create" pressed on the review. */
export function firstInvalidStep(errors: FieldErrors<BotFormValues>): WizardStep | undefined {
  return WIZARD_STEPS.find((step) => STEP_FIELDS[step].some((name) => errors[name]));
}

/** The form as it is now, to draw it (every field has a default value, so the form is always whole). */
export function useBotFormValues(control: Control<BotFormValues>): BotFormValues {
  return { ...emptyBotForm, ...useWatch({ control }) };
}
