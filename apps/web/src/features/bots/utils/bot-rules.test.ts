import { describe, expect, it } from 'vitest';
import { type BotFormContext, STEP_FIELDS, botFormResolver, firstInvalidStep } from './bot-form-schema';
import {
  type AccountOption,
  type BotFormValues,
  type StrategyOption,
  WIZARD_STEPS,
  type WizardStep,
  allocationOf,
  botToForm,
  emptyBotForm,
  goalProgress,
  toCreateBotBody,
  toUpdateBotBody,
} from './bot-rules';

const spot: AccountOption = {
  id: 'acc-spot',
  nickname: 'Paper spot',
  exchange: 'paper',
  marketType: 'spot',
  usdtBalance: '10000',
  botCount: 2,
  status: 'active',
};
const futures: AccountOption = { ...spot, id: 'acc-fut', nickname: 'Paper futures', marketType: 'future' };
const strategy: StrategyOption = {
  id: 'st-1',
  nickname: 'Trend BTC',
  strategyKey: 'trend-btc',
  tradeCurrency: 'BTC',
  stableCoin: 'USDT',
  timeFrame: '1h',
  status: 'active',
  isPublic: true,
  isOwner: false,
};
const retired: StrategyOption = { ...strategy, id: 'st-old', status: 'retired' };

/** Another bot holds 40% of the balance, a third a fixed 1,000 USDT (10% of 10,000). */
const distribution = {
  usdtBalance: '10000.00',
  allocatedPercent: '40.00',
  bots: [
    { botId: 'b1', nickname: 'A', portfolioPercent: '40', fixedAmount: null, isActive: true },
    { botId: 'b2', nickname: 'B', portfolioPercent: null, fixedAmount: '1000', isActive: false },
  ],
};
const allocation = allocationOf(distribution);

const context: BotFormContext = { accounts: [spot, futures], strategies: [strategy, retired], allocation };

const complete: BotFormValues = {
  ...emptyBotForm,
  nickname: 'BTC follower',
  tradingAccountId: spot.id,
  strategyId: strategy.id,
  tradeCurrency: 'btc',
  stableCoin: 'USDT',
  portfolioPercent: '25',
};

/** The form's errors as react-hook-form gets them from the schema: the first message of each field. */
async function formErrors(values: BotFormValues, at: BotFormContext = context) {
  const { errors } = await botFormResolver(() => at)(values, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return errors;
}

/** What keeps the user on a step (the wizard's `trigger` of that step's fields); {} lets them go on. */
async function stepErrors(step: WizardStep, values: BotFormValues, at: BotFormContext = context) {
  const errors = await formErrors(values, at);
  const fields = step === 'review' ? WIZARD_STEPS.flatMap((name) => STEP_FIELDS[name]) : STEP_FIELDS[step];
  return Object.fromEntries(
    fields.flatMap((field) => (errors[field] ? [[field, errors[field].message]] : [])),
  ) as Partial<Record<keyof BotFormValues, string>>;
}

describe('the allocation rule (bots-distributions)', () => {
  it('counts both the shares and the fixed amounts other bots claim', () => {
    expect(allocation).toMatchObject({
      balance: 10_000,
      claimedPercent: 40,
      claimedAmount: 1000,
      availablePercent: 50,
      availableAmount: 5000,
    });
  });

  it.each([
    ['portfolio', '50', null],
    ['portfolio', '50,0', null],
    ['portfolio', '50.01', 'bots.errors.overAllocatedPercent'],
    ['portfolio', '101', 'bots.errors.percentRange'],
    ['portfolio', '0', 'Please enter a valid amount'],
    ['portfolio', 'abc', 'Please enter a valid amount'],
    ['portfolio', '  ', 'This field is required'],
    ['fixed', '5000', null],
    ['fixed', '5000.01', 'bots.errors.overAllocatedAmount'],
    ['fixed', '-3', 'Please enter a valid amount'],
    ['fixed', '', 'This field is required'],
  ] as const)('%s %j → %s', async (sizing, value, message) => {
    const values = {
      ...complete,
      sizing,
      portfolioPercent: sizing === 'portfolio' ? value : '',
      fixedAmount: sizing === 'fixed' ? value : '',
    };
    const field = sizing === 'portfolio' ? 'portfolioPercent' : 'fixedAmount';
    expect(await stepErrors('volume', values)).toEqual(message === null ? {} : { [field]: message });
  });

  it('refuses with what is left, and waits for the distribution before allowing anything', async () => {
    expect(await stepErrors('volume', { ...complete, portfolioPercent: '60' })).toEqual({
      portfolioPercent: 'bots.errors.overAllocatedPercent',
    });
    // The message says the allocation's figure: 50% left here.
    expect(allocation.availablePercent).toBe(50);
    expect(
      await stepErrors(
        'volume',
        { ...complete, sizing: 'fixed', fixedAmount: '1' },
        { ...context, allocation: undefined },
      ),
    ).toEqual({ fixedAmount: 'bots.errors.allocationUnknown' });
  });

  it('never offers less than nothing, even on an over-claimed or empty account', async () => {
    const crowded = allocationOf({ ...distribution, allocatedPercent: '95.00' });
    expect(crowded.availablePercent).toBe(0);
    expect(crowded.availableAmount).toBe(0);
    const empty = allocationOf({ usdtBalance: '0', allocatedPercent: '0.00', bots: [] });
    expect(empty).toMatchObject({ availablePercent: 100, availableAmount: 0 });
    expect(
      await stepErrors(
        'volume',
        { ...complete, sizing: 'fixed', fixedAmount: '10' },
        { ...context, allocation: empty },
      ),
    ).toEqual({ fixedAmount: 'bots.errors.overAllocatedAmount' });
  });
});

describe('wizard step validation (spec §5 messages)', () => {
  it('has the seven steps of spec §2 in order', () => {
    expect(WIZARD_STEPS).toEqual(['name', 'account', 'strategy', 'config', 'volume', 'release', 'review']);
  });

  it('asks for a name, an account and a strategy', async () => {
    expect(await stepErrors('name', emptyBotForm)).toEqual({ nickname: 'This field is required' });
    expect((await stepErrors('name', { ...emptyBotForm, nickname: 'x'.repeat(81) })).nickname).toBe(
      'bots.errors.nameTooLong',
    );
    expect(await stepErrors('account', emptyBotForm)).toEqual({
      tradingAccountId: 'This field is required',
    });
    expect(
      (await stepErrors('account', { ...emptyBotForm, tradingAccountId: 'gone' })).tradingAccountId,
    ).toBeTruthy();
    expect((await stepErrors('strategy', emptyBotForm)).strategyId).toBe('This field is required');
    expect((await stepErrors('strategy', { ...emptyBotForm, strategyId: retired.id })).strategyId).toBe(
      'bots.errors.strategyRetired',
    );
  });

  it('checks the pair and the optional monthly goal', async () => {
    expect(await stepErrors('config', { ...complete, tradeCurrency: '', stableCoin: 'US DT' })).toEqual({
      tradeCurrency: 'This field is required',
      stableCoin: 'bots.errors.currencyCode',
    });
    expect((await stepErrors('config', { ...complete, monthlyGoalPercent: 'lots' })).monthlyGoalPercent).toBe(
      'Please enter a valid amount',
    );
    expect(
      (await stepErrors('config', { ...complete, monthlyGoalPercent: '20000' })).monthlyGoalPercent,
    ).toBe('bots.errors.goalRange');
    expect(await stepErrors('config', { ...complete, monthlyGoalPercent: '' })).toEqual({});
  });

  it('asks for leverage on futures accounts only', async () => {
    const onFutures = { ...complete, tradingAccountId: futures.id };
    expect((await stepErrors('volume', { ...onFutures, leverage: '200' })).leverage).toBe(
      'bots.errors.leverageRange',
    );
    expect((await stepErrors('volume', { ...onFutures, leverage: '' })).leverage).toBe(
      'This field is required',
    );
    expect(await stepErrors('volume', { ...onFutures, leverage: '3' })).toEqual({});
    expect(await stepErrors('volume', { ...complete, leverage: '200' })).toEqual({});
  });

  it('refuses over-allocating in the volume step', async () => {
    expect((await stepErrors('volume', { ...complete, portfolioPercent: '75' })).portfolioPercent).toBe(
      'bots.errors.overAllocatedPercent',
    );
  });

  it('reviews every step and points at the first one to fix', async () => {
    expect(await stepErrors('review', complete)).toEqual({});
    expect(firstInvalidStep(await formErrors(complete))).toBeUndefined();
    expect(firstInvalidStep(await formErrors({ ...complete, stableCoin: '' }))).toBe('config');
    expect(firstInvalidStep(await formErrors({ ...complete, nickname: '', stableCoin: '' }))).toBe('name');
  });
});

describe('what the wizard sends', () => {
  it('posts the spec’s snake_case fields with one sizing rule', () => {
    expect(toCreateBotBody({ ...complete, monthlyGoalPercent: '4,5', release: 'paused' }, 'spot')).toEqual({
      nickname: 'BTC follower',
      is_active: false,
      strategy_id: 'st-1',
      trading_account_id: 'acc-spot',
      trade_currency: 'BTC',
      stable_coin: 'USDT',
      leverage_percent: '100',
      monthly_goal_percent: '4.5',
      portfolio_percent: '25',
    });
    const fixed = toCreateBotBody(
      { ...complete, sizing: 'fixed', fixedAmount: '250.5', leverage: '2.5' },
      'future',
    );
    expect(fixed).toMatchObject({ fixed_amount: '250.5', leverage_percent: '250', is_active: true });
    expect(fixed).not.toHaveProperty('portfolio_percent');
  });

  it('edits without moving account or strategy, keeping the switch as it is and clearing the other sizing rule', () => {
    const body = toUpdateBotBody(
      { ...complete, sizing: 'fixed', fixedAmount: '100', release: 'live' },
      'spot',
    );
    expect(body).toMatchObject({ fixed_amount: '100', portfolio_percent: null, is_active: true });
    expect(body).not.toHaveProperty('strategy_id');
    expect(body).not.toHaveProperty('trading_account_id');
  });

  it('starts an edit from the bot as the server sent it', () => {
    const bot = {
      id: 'b1',
      nickname: 'BTC follower',
      isActive: false,
      isTrading: false,
      tradeCurrency: 'BTC',
      stableCoin: 'USDT',
      portfolioPercent: '20.000000000000000000',
      fixedAmount: null,
      leveragePercent: '300',
      marginMode: 'isolated' as const,
      monthlyGoalPercent: '5.000000000000000000',
      goalAccumulatedProfitPercent: '2.5',
      position: 'out' as const,
      strategy: {
        id: 'st-1',
        nickname: 'Trend',
        strategyKey: 'trend',
        tradeCurrency: 'BTC',
        timeFrame: '1h',
      },
      tradingAccount: {
        id: 'acc-fut',
        nickname: 'Paper',
        exchange: 'paper',
        usdtBalance: '10000',
        sandbox: false,
      },
      createdAt: '',
      updatedAt: '',
    };
    expect(botToForm(bot)).toMatchObject({
      sizing: 'portfolio',
      portfolioPercent: '20',
      monthlyGoalPercent: '5',
      leverage: '3',
      release: 'paused',
    });
    expect(goalProgress(bot)).toBe(0.5);
    expect(goalProgress({ monthlyGoalPercent: null, goalAccumulatedProfitPercent: '3' })).toBeNull();
    expect(goalProgress({ monthlyGoalPercent: '2', goalAccumulatedProfitPercent: '-1' })).toBe(0);
  });
});
