/** English texts of the dashboard. */
const enUSDashboard = {
  dashboard: {
    title: 'Dashboard',
    description: 'Equity, profit and where your capital is working.',
    openPositions: {
      title: 'Open positions',
      description: 'Open trades at the exchange’s last price, in each pair’s quote currency',
      symbol: 'Symbol',
      source: 'Bot · account',
      manual: 'Manual',
      side: 'Side',
      quantity: 'Held',
      entry: 'Entry',
      price: 'Price',
      unrealised: 'Unrealised PnL',
      empty: 'No open position',
    },
    metrics: {
      netPnl: 'Net PnL',
      pnlPercent: 'PnL %',
      winRate: 'Win rate',
      closedTrades: 'Closed trades',
      netPnlHint: 'Realised on closed trades',
      pnlPercentHint: 'Net PnL over the value traded',
      winRateHint: 'Closed trades in profit',
      closedTradesHint: '{{from}} – {{to}}',
    },
    charts: {
      equityCurve: 'Equity curve',
      cumulativePnl: 'Cumulative PnL',
      dailyPnl: 'Daily PnL',
      balanceByAccount: 'Balance by account',
      capitalByBot: 'Capital deployed by bot',
      equityDescription: 'Total balance of your accounts at the end of each day',
      cumulativeDescription: 'Realised PnL of this bot, added up day by day',
      dailyPnlDescription: 'Realised PnL of the trades closed each day',
      balanceDescription: 'Balance of each trading account now',
      capitalDescription_one: 'Entry value of open trades, top bot',
      capitalDescription_other: 'Entry value of open trades, top {{count}} bots',
      total: 'Total',
      noCapital: 'No bot has an open trade right now.',
      trades_one: '{{count}} trade',
      trades_other: '{{count}} trades',
      openTrades_one: '{{count}} open trade',
      openTrades_other: '{{count}} open trades',
    },
    filters: {
      label: 'Dashboard filters',
      period: 'Period',
      presets: {
        '7d': '7D',
        '30d': '30D',
        '90d': '90D',
        ytd: 'YTD',
        '1y': '1Y',
      },
      presetNames: {
        '7d': 'Last 7 days',
        '30d': 'Last 30 days',
        '90d': 'Last 90 days',
        ytd: 'Since 1 January',
        '1y': 'Last 12 months',
      },
      from: 'From',
      to: 'To',
      account: 'Account',
      allAccounts: 'All accounts',
      bot: 'Bot',
      allBots: 'All bots',
      reset: 'Reset filters',
    },
    currency: {
      converted: '≈ {{currency}}',
      convertedNote: 'Amounts converted from USDT at 1 USDT = {{rate}} {{currency}} ({{source}}).',
    },
    updating: 'Updating…',
    empty: {
      title: 'Nothing to show yet',
      description:
        'Connect a trading account (a paper account works offline), then create your first bot. Equity, PnL and capital appear here as soon as it trades.',
      connectAccount: 'Connect an account',
      createBot: 'Create your first bot',
    },
    noBot: {
      title: 'Your account is connected: now create a bot',
      description: 'A bot trades your TradingView signals on this account; its results appear here.',
    },
    protection: {
      title: 'Open trades without a stop-loss',
      refusedTitle: 'Stops refused by the exchange',
      unprotected_one: '{{count}} open trade holds a position with no stop-loss: nothing protects it.',
      unprotected_other: '{{count}} open trades hold positions with no stop-loss: nothing protects them.',
      venueStopRefused_one:
        'The exchange refused the stop order of {{count}} open trade: only Kairos’s price watch protects it.',
      venueStopRefused_other:
        'The exchange refused the stop orders of {{count}} open trades: only Kairos’s price watch protects them.',
      seeOpenTrades: 'See open trades',
    },
    testnet: {
      only: 'These figures are a testnet account’s: not real funds.',
      all: 'All your accounts are testnet accounts: these figures are not real funds.',
      includes:
        'These totals include testnet accounts ({{names}}): pick an account to see live figures only.',
    },
  },
};

export default enUSDashboard;
