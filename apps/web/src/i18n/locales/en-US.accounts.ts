/** English texts of the trading accounts screens. */
const enUSAccounts = {
  accounts: {
    title: 'Trading accounts',
    description: 'Exchange accounts your bots trade on. Keys are encrypted and never shown again.',
    paper: 'Paper',
    noKeys: 'No keys (simulated)',
    withdrawRiskNote: 'You confirmed it cannot withdraw · {{time}}',
    balanceUpdated: 'Balance updated {{time}}',
    marketType: {
      spot: 'Spot',
      future: 'Futures',
    },
    venue: {
      paper: 'Paper trading (simulated, no keys)',
    },
    status: {
      active: 'Connected',
      error: 'Error',
    },
    columns: {
      nickname: 'Nickname',
      exchange: 'Venue',
      apiKey: 'API key',
      balance: 'USDT balance',
      bots: 'Bots',
      status: 'Status',
      actions: 'Actions',
    },
    fields: {
      venue: 'Venue',
      nickname: 'Nickname',
      marketType: 'Market',
      startingBalance: 'Starting balance',
      apiKey: 'API key',
      apiSecret: 'API secret',
      passphrase: 'API passphrase',
      sandbox: 'Testnet',
      currentKey: 'Current API key',
    },
    connect: {
      withdrawRisk: {
        label: 'I have checked that this key cannot withdraw funds',
        description:
          'The exchange does not say whether this key may withdraw. Kairos never needs that right: make sure it is off in the key’s settings at the exchange, then connect again.',
      },
      open: 'Connect an account',
      title: 'Connect a trading account',
      description:
        'Paper trading works offline with a simulated balance. A real exchange needs an API key that can trade but not withdraw.',
      paperHint: 'Simulated USDT to trade with: nothing real is at stake.',
      keysHint:
        'Create an API key with trading permission only. Kairos checks it by reading your balance and refuses keys that can withdraw funds.',
      sandboxHint: 'Trade on the exchange’s test network instead of real funds.',
      testnet: {
        testnet:
          '{{venue}} has a testnet for {{market}}: turn on “Testnet” and use testnet keys (no real funds).',
        demo: '{{venue}} has demo trading for {{market}}: turn on “Testnet” and use demo-trading keys (no real funds).',
        none: '{{venue}} has no testnet or demo trading for {{market}}: these keys trade real funds.',
        testnetToggle: 'Testnet keys: nothing real is at stake.',
        demoToggle: 'Demo-trading keys: nothing real is at stake.',
        unavailable: 'Unavailable: {{venue}} has no testnet for {{market}}.',
      },
      submit: 'Connect',
      submitting: 'Checking with the exchange…',
      connected: '{{name}} is connected',
    },
    edit: {
      short: 'Edit',
      action: 'Edit {{name}}',
      title: 'Edit {{name}}',
      rotateKeys: 'Replace keys',
      keepKeys: 'Keep current keys',
      newKeys: 'New API key',
      rotateHint: 'The new key is checked with the exchange before it replaces the current one.',
      saved: '{{name}} is saved',
    },
    delete: {
      short: 'Delete',
      action: 'Delete {{name}}',
      title: 'Delete {{name}}?',
      noBots:
        'The account, its encrypted keys and its trade history are removed from Kairos. Nothing changes on the exchange.',
      withBots_one:
        '{{count}} bot trades on this account. The account can only be deleted together with it; keys and trade history go too. Nothing changes on the exchange.',
      withBots_other:
        '{{count}} bots trade on this account. The account can only be deleted together with them; keys and trade history go too. Nothing changes on the exchange.',
      alsoDeleteBots_one: 'Also delete its bot',
      alsoDeleteBots_other: 'Also delete its {{count}} bots',
      confirm: 'Delete account',
      alsoDeleteItsBots: 'Also delete its bots',
      confirmWithItsBots: 'Delete account and bots',
      confirmWithBots_one: 'Delete account and bot',
      confirmWithBots_other: 'Delete account and {{count}} bots',
      deleted: '{{name}} is deleted',
    },
    empty: {
      title: 'No trading account yet',
      description:
        'Start with a paper account: no keys, a simulated balance, and it works offline. Connect an exchange whenever you are ready.',
      connectPaper: 'Connect a paper account',
    },
  },
};

export default enUSAccounts;
