/** English texts of the Trades screen (every trade of the user); they load with the screen (loadLaterTexts). */
const enUSTradeList = {
  tradeList: {
    title: 'Trades',
    description: 'Every trade of your bots and your manual trades: open, closed, cancelled or in error.',
    caption: 'Your trades',
    columns: {
      opened: 'Opened',
      bot: 'Bot',
      quantity: 'Quantity',
      funding: 'Funding',
    },
    manual: 'Manual',
    filters: {
      label: 'Filters',
      status: 'Status',
      anyStatus: 'Any status',
      bot: 'Bot',
      anyBot: 'Any bot',
      account: 'Trading account',
      anyAccount: 'Any account',
      symbol: 'Symbol',
      symbolPlaceholder: 'BTC/USDT',
      from: 'Opened from',
      to: 'Opened until',
      apply: 'Apply',
      clear: 'Clear filters',
    },
    statuses: {
      open: 'Open',
      closing: 'Closing',
      closed: 'Closed',
      cancelled: 'Cancelled',
      error: 'Error',
    },
    card: {
      size: 'Size',
      pnl: 'PnL',
    },
    empty: {
      title: 'No trades yet',
      description: 'Your bots’ trades and the trades you open by hand on the Trading screen appear here.',
    },
    noMatch: {
      title: 'No trades match these filters',
      description: 'Change or clear the filters to see more trades.',
    },
  },
};

export default enUSTradeList;
