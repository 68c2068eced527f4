/** English texts of the portfolio screen. */
const enUSPortfolio = {
  portfolio: {
    title: 'Portfolio',
    description: 'What you hold across your trading accounts.',
    equity: {
      total: 'Total equity (est.)',
      usdtHeld: 'USDT held',
      available: 'Available',
      hint: 'Every asset at its last price; available: the dollars free to spend now.',
      unread_one: '{{count}} account could not be read and is left out.',
      unread_other: '{{count}} accounts could not be read and are left out.',
    },
    assets_one: '{{count}} asset',
    assets_other: '{{count}} assets',
    accounts_one: 'across {{count}} account',
    accounts_other: 'across {{count}} accounts',
    holdings: 'Holdings',
    columns: {
      asset: 'Asset',
      amount: 'Amount',
      value: 'Value',
      share: 'Share',
      accounts: 'Held on',
    },
    allocation: 'Allocation',
    allocationDescription: 'Share of each asset in the total value',
    other: 'Other',
    history: 'Value over time',
    historyDescription: 'Total balance of your accounts',
    period: 'Period',
    periods: {
      '1d': '1D',
      '7d': '7D',
      '30d': '30D',
      '90d': '90D',
      '1y': '1Y',
      all: 'All',
    },
    periodNames: {
      '1d': 'Last 24 hours',
      '7d': 'Last 7 days',
      '30d': 'Last 30 days',
      '90d': 'Last 90 days',
      '1y': 'Last 12 months',
      all: 'Since the first balance',
    },
    historyEmpty: 'Balances are recorded every few minutes: the curve starts with the first one.',
    errors: {
      title_one: 'One account could not be read',
      title_other: '{{count}} accounts could not be read',
      hint: 'The rest of your portfolio is shown without them.',
    },
    testnet: 'The total includes testnet accounts ({{names}}): their balances are not real funds.',
    empty: {
      title: 'Your portfolio is empty',
      description: 'Connect a trading account to see your balances here.',
      connectAccount: 'Connect an account',
    },
  },
};

export default enUSPortfolio;
