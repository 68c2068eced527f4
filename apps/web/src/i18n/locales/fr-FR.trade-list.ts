import type enUSTradeList from './en-US.trade-list';

/** French texts of the Trades screen: typed against English, so a missing or extra key fails the build. */
const frFRTradeList: typeof enUSTradeList = {
  tradeList: {
    title: 'Trades',
    description:
      'Tous les trades de vos bots et vos trades manuels : ouverts, clôturés, annulés ou en erreur.',
    views: {
      label: 'Trades et ordres',
      trades: 'Trades',
      orders: 'Ordres',
    },
    caption: 'Vos trades',
    columns: {
      opened: 'Ouvert le',
      bot: 'Bot',
      quantity: 'Quantité',
      funding: 'Financement',
    },
    manual: 'Manuel',
    filters: {
      label: 'Filtres',
      status: 'Statut',
      anyStatus: 'Tous les statuts',
      bot: 'Bot',
      anyBot: 'Tous les bots',
      account: 'Compte de trading',
      anyAccount: 'Tous les comptes',
      symbol: 'Symbole',
      symbolPlaceholder: 'BTC/USDT',
      from: 'Ouverts depuis le',
      to: 'Ouverts jusqu’au',
      apply: 'Appliquer',
      clear: 'Effacer les filtres',
    },
    statuses: {
      open: 'Ouvert',
      closing: 'En clôture',
      closed: 'Clôturé',
      cancelled: 'Annulé',
      error: 'Erreur',
    },
    card: {
      size: 'Taille',
      pnl: 'PnL',
    },
    empty: {
      title: 'Aucun trade pour l’instant',
      description:
        'Les trades de vos bots et ceux que vous ouvrez à la main depuis l’écran Trading apparaissent ici.',
    },
    noMatch: {
      title: 'Aucun trade ne correspond à ces filtres',
      description: 'Modifiez ou effacez les filtres pour voir plus de trades.',
    },
  },
  orderList: {
    title: 'Ordres',
    description:
      'Les ordres de vos trades sur la plateforme d’échange : un ordre limite qui attend son prix est un ordre, pas encore une position.',
    caption: 'Vos ordres',
    columns: {
      account: 'Compte',
      price: 'Prix',
      amount: 'Quantité',
      filled: 'Exécuté',
      age: 'Âge',
      action: 'Action',
    },
    side: { buy: 'Achat', sell: 'Vente' },
    types: { market: 'au marché', limit: 'limite' },
    market: 'Au marché',
    manual: 'Manuel',
    openTrade: 'Voir le trade',
    filters: { scope: 'Afficher' },
    scopes: { open: 'Ordres ouverts', all: 'Tous les ordres' },
    card: { age: 'Placé il y a {{age}}' },
    cancel: {
      action: 'Annuler',
      actionFor: 'Annuler l’ordre {{symbol}} ({{role}})',
      title: 'Annuler cet ordre sur {{symbol}} ?',
      messageBuy:
        'L’ordre limite d’achat de {{amount}} à {{price}} sur {{account}} est annulé sur la plateforme. Rien n’a été acheté : le trade s’arrête avec lui.',
      messageSell:
        'L’ordre limite de vente de {{amount}} à {{price}} sur {{account}} est annulé sur la plateforme. Rien n’a été vendu : le trade s’arrête avec lui.',
      race: 'S’il est exécuté avant que l’annulation n’arrive sur la plateforme, la position est clôturée au marché à la place.',
      confirm: 'Annuler l’ordre',
      keep: 'Le garder',
      done: 'Ordre sur {{symbol}} annulé',
      filledFirst: 'L’ordre sur {{symbol}} avait été exécuté : la position a été clôturée au marché',
      sent: 'Annulation de l’ordre sur {{symbol}} envoyée',
      failed: 'L’ordre n’a pas pu être annulé',
    },
    empty: {
      title: 'Aucun ordre ouvert',
      description:
        'Un ordre limite passé depuis l’écran Trading attend ici jusqu’à son exécution ou son annulation.',
      showAll: 'Afficher tous les ordres',
    },
    none: {
      title: 'Aucun ordre pour l’instant',
      description: 'Les ordres des trades de vos bots et de vos trades manuels apparaissent ici.',
    },
  },
};

export default frFRTradeList;
