/** English texts of the Trades screen (every trade of the user); they load with the screen (loadLaterTexts). */
const enUSTradeList = {
  tradeList: {
    title: 'Trades',
    description: 'Every trade of your bots and your manual trades: open, closed, cancelled or in error.',
    views: {
      label: 'Trades and orders',
      trades: 'Trades',
      orders: 'Orders',
    },
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
  orderList: {
    title: 'Orders',
    description:
      'The orders of your trades at the exchange: a limit order waiting for its price is an order, not a position yet.',
    caption: 'Your orders',
    columns: {
      account: 'Account',
      price: 'Price',
      amount: 'Amount',
      filled: 'Filled',
      age: 'Age',
      action: 'Action',
    },
    side: { buy: 'Buy', sell: 'Sell' },
    types: { market: 'market', limit: 'limit' },
    market: 'Market',
    manual: 'Manual',
    openTrade: 'Open trade',
    filters: { scope: 'Show' },
    scopes: { open: 'Open orders', all: 'All orders' },
    card: { age: 'Placed {{age}} ago' },
    cancel: {
      action: 'Cancel',
      actionFor: 'Cancel the {{symbol}} order ({{role}})',
      title: 'Cancel this order on {{symbol}}?',
      messageBuy:
        'The limit order to buy {{amount}} at {{price}} on {{account}} is cancelled at the exchange. Nothing has been bought, so the trade ends with it.',
      messageSell:
        'The limit order to sell {{amount}} at {{price}} on {{account}} is cancelled at the exchange. Nothing has been sold, so the trade ends with it.',
      race: 'If it fills before the cancellation reaches the exchange, the position is closed at market instead.',
      confirm: 'Cancel the order',
      keep: 'Keep it',
      done: 'Order on {{symbol}} cancelled',
      filledFirst: 'The order on {{symbol}} had filled: the position was closed at market',
      sent: 'Cancellation of the order on {{symbol}} sent',
      failed: 'The order could not be cancelled',
    },
    empty: {
      title: 'No open orders',
      description:
        'A limit order you place on the Trading screen waits here until it fills or you cancel it.',
      showAll: 'Show all orders',
    },
    none: {
      title: 'No orders yet',
      description: 'The orders of your bots’ trades and of your manual trades appear here.',
    },
  },
};

export default enUSTradeList;
