import type enUSTradeList from './en-US.trade-list';

/** French texts of the Trades screen: typed against English, so a missing or extra key fails the build. */
const frFRTradeList: typeof enUSTradeList = {
  tradeList: {
    title: 'Trades',
    description:
      'Tous les trades de vos bots et vos trades manuels : ouverts, clôturés, annulés ou en erreur.',
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
};

export default frFRTradeList;
