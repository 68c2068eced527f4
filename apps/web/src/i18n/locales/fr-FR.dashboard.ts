import type enUSDashboard from './en-US.dashboard';

/** French texts of the dashboard: typed against English, so a missing or extra key fails the build. */
const frFRDashboard: typeof enUSDashboard = {
  dashboard: {
    title: 'Tableau de bord',
    description: 'Capital, gains et répartition de vos fonds.',
    openPositions: {
      title: 'Positions ouvertes',
      description:
        'Trades ouverts au dernier prix de la plateforme, dans la devise de cotation de chaque paire',
      symbol: 'Symbole',
      source: 'Bot · compte',
      manual: 'Manuel',
      side: 'Sens',
      quantity: 'Détenu',
      entry: 'Entrée',
      price: 'Prix',
      unrealised: 'PnL latent',
      empty: 'Aucune position ouverte',
    },
    metrics: {
      netPnl: 'PnL net',
      pnlPercent: 'PnL %',
      winRate: 'Taux de réussite',
      closedTrades: 'Trades clôturés',
      netPnlHint: 'Réalisé sur les trades clôturés',
      pnlPercentHint: 'PnL net rapporté au montant engagé',
      winRateHint: 'Trades clôturés en gain',
      closedTradesHint: '{{from}} – {{to}}',
    },
    charts: {
      equityCurve: 'Courbe du capital',
      cumulativePnl: 'PnL cumulé',
      dailyPnl: 'PnL quotidien',
      balanceByAccount: 'Solde par compte',
      capitalByBot: 'Capital engagé par bot',
      equityDescription: 'Solde total de vos comptes à la fin de chaque jour',
      cumulativeDescription: 'PnL réalisé de ce bot, cumulé jour après jour',
      dailyPnlDescription: 'PnL réalisé des trades clôturés chaque jour',
      balanceDescription: 'Solde actuel de chaque compte de trading',
      capitalDescription_one: 'Valeur d’entrée des trades ouverts, premier bot',
      capitalDescription_other: 'Valeur d’entrée des trades ouverts, {{count}} premiers bots',
      total: 'Total',
      noCapital: 'Aucun bot n’a de trade ouvert en ce moment.',
      trades_one: '{{count}} trade',
      trades_other: '{{count}} trades',
      openTrades_one: '{{count}} trade ouvert',
      openTrades_other: '{{count}} trades ouverts',
    },
    filters: {
      label: 'Filtres du tableau de bord',
      period: 'Période',
      presets: {
        '7d': '7 j',
        '30d': '30 j',
        '90d': '90 j',
        ytd: 'Année',
        '1y': '1 an',
      },
      presetNames: {
        '7d': '7 derniers jours',
        '30d': '30 derniers jours',
        '90d': '90 derniers jours',
        ytd: 'Depuis le 1er janvier',
        '1y': '12 derniers mois',
      },
      from: 'Du',
      to: 'Au',
      account: 'Compte',
      allAccounts: 'Tous les comptes',
      bot: 'Bot',
      allBots: 'Tous les bots',
      reset: 'Réinitialiser les filtres',
    },
    currency: {
      converted: '≈ {{currency}}',
      convertedNote: 'Montants convertis depuis l’USDT à 1 USDT = {{rate}} {{currency}} ({{source}}).',
    },
    updating: 'Mise à jour…',
    empty: {
      title: 'Rien à afficher pour l’instant',
      description:
        'Connectez un compte de trading (un compte simulé fonctionne hors ligne), puis créez votre premier bot. Capital, PnL et répartition apparaissent ici dès qu’il opère.',
      connectAccount: 'Connecter un compte',
      createBot: 'Créer votre premier bot',
    },
    noBot: {
      title: 'Votre compte est connecté : créez maintenant un bot',
      description: 'Un bot suit vos signaux TradingView sur ce compte ; ses résultats apparaissent ici.',
    },
    protection: {
      title: 'Trades ouverts sans stop-loss',
      refusedTitle: 'Stops refusés par la plateforme',
      unprotected_one: '{{count}} trade ouvert détient une position sans stop-loss : rien ne la protège.',
      unprotected_other:
        '{{count}} trades ouverts détiennent des positions sans stop-loss : rien ne les protège.',
      venueStopRefused_one:
        'La plateforme a refusé l’ordre stop de {{count}} trade ouvert : seule la surveillance du prix par Kairos le protège.',
      venueStopRefused_other:
        'La plateforme a refusé les ordres stop de {{count}} trades ouverts : seule la surveillance du prix par Kairos les protège.',
      seeOpenTrades: 'Voir les trades ouverts',
    },
    testnet: {
      only: 'Ces chiffres sont ceux d’un compte de testnet : pas des fonds réels.',
      all: 'Tous vos comptes sont des comptes de testnet : ces chiffres ne sont pas des fonds réels.',
      includes:
        'Ces totaux comprennent des comptes de testnet ({{names}}) : choisissez un compte pour ne voir que des chiffres réels.',
    },
  },
};

export default frFRDashboard;
