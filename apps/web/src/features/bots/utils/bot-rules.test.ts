import { describe, expect, it } from 'vitest';
import {
  type AccountOption,
  type BotFormValues,
  type StepContext,
  type StrategyOption,
  WIZARD_STEPS,
  allocationOf,
  botToForm,
  checkAllocation,
  emptyBotForm,
  firstInvalidStep,
  goalProgress,
  toCreateBotBody,
  toUpdateBotBody,
  validateStep,
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

const context: StepContext = { accounts: [spot, futures], strategies: [strategy, retired], allocation };

const complete: BotFormValues = {
  ...emptyBotForm,
  nickname: 'BTC follower',
  tradingAccountId: spot.id,
  strategyId: strategy.id,
  tradeCurrency: 'btc',
  stableCoin: 'USDT',
  portfolioPercent: '25',
};

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
  ] as const)('%s %j → %s', (sizing, value, message) => {
    const values = {
      sizing,
      portfolioPercent: sizing === 'portfolio' ? value : '',
      fixedAmount: sizing === 'fixed' ? value : '',
    };
    const result = checkAllocation(values, allocation);
    if (message === null) expect(result).toBeNull();
    else {
      expect(result?.error.message).toBe(message);
      expect(result?.field).toBe(sizing === 'portfolio' ? 'portfolioPercent' : 'fixedAmount');
    }
  });

  it('says how much is left when refusing, and waits for the distribution before allowing anything', () => {
    expect(
      checkAllocation({ sizing: 'portfolio', portfolioPercent: '60', fixedAmount: '' }, allocation),
    ).toEqual({
      field: 'portfolioPercent',
      error: { message: 'bots.errors.overAllocatedPercent', values: { available: 50 } },
    });
    expect(
      checkAllocation({ sizing: 'fixed', portfolioPercent: '', fixedAmount: '1' }, undefined)?.error.message,
    ).toBe('bots.errors.allocationUnknown');
  });

  it('never offers less than nothing, even on an over-claimed or empty account', () => {
    const crowded = allocationOf({ ...distribution, allocatedPercent: '95.00' });
    expect(crowded.availablePercent).toBe(0);
    expect(crowded.availableAmount).toBe(0);
    const empty = allocationOf({ usdtBalance: '0', allocatedPercent: '0.00', bots: [] });
    expect(empty).toMatchObject({ availablePercent: 100, availableAmount: 0 });
    expect(
      checkAllocation({ sizing: 'fixed', portfolioPercent: '', fixedAmount: '10' }, empty)?.error.message,
    ).toBe('bots.errors.overAllocatedAmount');
  });
});

describe('wizard step validation (spec §5 messages)', () => {
  it('has the seven steps of spec §2 in order', () => {
    expect(WIZARD_STEPS).toEqual(['name', 'account', 'strategy', 'config', 'volume', 'release', 'review']);
  });

  it('asks for a name, an account and a strategy', () => {
    expect(validateStep('name', emptyBotForm, context)).toEqual({
      nickname: { message: 'This field is required' },
    });
    expect(
      validateStep('name', { ...emptyBotForm, nickname: 'x'.repeat(81) }, context).nickname?.message,
    ).toBe('bots.errors.nameTooLong');
    expect(validateStep('account', emptyBotForm, context)).toEqual({
      tradingAccountId: { message: 'This field is required' },
    });
    expect(
      validateStep('account', { ...emptyBotForm, tradingAccountId: 'gone' }, context).tradingAccountId,
    ).toBeTruthy();
    expect(validateStep('strategy', emptyBotForm, context).strategyId?.message).toBe(
      'This field is required',
    );
    expect(
      validateStep('strategy', { ...emptyBotForm, strategyId: retired.id }, context).strategyId?.message,
    ).toBe('bots.errors.strategyRetired');
  });

  it('checks the pair and the optional monthly goal', () => {
    expect(validateStep('config', { ...complete, tradeCurrency: '', stableCoin: 'US DT' }, context)).toEqual({
      tradeCurrency: { message: 'This field is required' },
      stableCoin: { message: 'bots.errors.currencyCode' },
    });
    expect(
      validateStep('config', { ...complete, monthlyGoalPercent: 'lots' }, context).monthlyGoalPercent
        ?.message,
    ).toBe('Please enter a valid amount');
    expect(
      validateStep('config', { ...complete, monthlyGoalPercent: '20000' }, context).monthlyGoalPercent
        ?.message,
    ).toBe('bots.errors.goalRange');
    expect(validateStep('config', { ...complete, monthlyGoalPercent: '' }, context)).toEqual({});
  });

  it('asks for leverage on futures accounts only', () => {
    const onFutures = { ...complete, tradingAccountId: futures.id };
    expect(validateStep('volume', { ...onFutures, leverage: '200' }, context).leverage?.message).toBe(
      'bots.errors.leverageRange',
    );
    expect(validateStep('volume', { ...onFutures, leverage: '' }, context).leverage?.message).toBe(
      'This field is required',
    );
    expect(validateStep('volume', { ...onFutures, leverage: '3' }, context)).toEqual({});
    expect(validateStep('volume', { ...complete, leverage: '200' }, context)).toEqual({});
  });

  it('refuses over-allocating in the volume step', () => {
    expect(
      validateStep('volume', { ...complete, portfolioPercent: '75' }, context).portfolioPercent?.message,
    ).toBe('bots.errors.overAllocatedPercent');
  });

  it('reviews every step and points at the first one to fix', () => {
    expect(validateStep('review', complete, context)).toEqual({});
    expect(firstInvalidStep(complete, context)).toBeUndefined();
    expect(firstInvalidStep({ ...complete, stableCoin: '' }, context)).toBe('config');
    expect(firstInvalidStep({ ...complete, nickname: '', stableCoin: '' }, context)).toBe('name');
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
