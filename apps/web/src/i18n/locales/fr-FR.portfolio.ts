import type enUSPortfolio from './en-US.portfolio';

/** French texts of the portfolio screen: typed against English, so a missing or extra key fails the build. */
const frFRPortfolio: typeof enUSPortfolio = {
  portfolio: {
    title: 'Portefeuille',
    description: 'Ce que vous détenez sur vos comptes de trading.',
    equity: {
      total: 'Valeur totale (est.)',
      usdtHeld: 'USDT détenus',
      available: 'Disponible',
      hint: 'Chaque actif à son dernier prix ; disponible : les dollars libres à dépenser maintenant.',
      unread_one: '{{count}} compte n’a pas pu être lu et n’est pas compté.',
      unread_other: '{{count}} comptes n’ont pas pu être lus et ne sont pas comptés.',
    },
    assets_one: '{{count}} actif',
    assets_other: '{{count}} actifs',
    accounts_one: 'sur {{count}} compte',
    accounts_other: 'sur {{count}} comptes',
    holdings: 'Avoirs',
    columns: {
      asset: 'Actif',
      amount: 'Quantité',
      value: 'Valeur',
      share: 'Part',
      accounts: 'Détenu sur',
    },
    allocation: 'Répartition',
    allocationDescription: 'Part de chaque actif dans la valeur totale',
    other: 'Autres',
    history: 'Valeur dans le temps',
    historyDescription: 'Solde total de vos comptes',
    period: 'Période',
    periods: {
      '1d': '1 j',
      '7d': '7 j',
      '30d': '30 j',
      '90d': '90 j',
      '1y': '1 an',
      all: 'Tout',
    },
    periodNames: {
      '1d': 'Dernières 24 heures',
      '7d': '7 derniers jours',
      '30d': '30 derniers jours',
      '90d': '90 derniers jours',
      '1y': '12 derniers mois',
      all: 'Depuis le premier solde',
    },
    historyEmpty: 'Les soldes sont relevés toutes les quelques minutes : la courbe commence au premier.',
    errors: {
      title_one: 'Un compte n’a pas pu être lu',
      title_other: '{{count}} comptes n’ont pas pu être lus',
      hint: 'Le reste de votre portefeuille est affiché sans eux.',
    },
    testnet:
      'Le total comprend des comptes de testnet ({{names}}) : leurs soldes ne sont pas des fonds réels.',
    empty: {
      title: 'Votre portefeuille est vide',
      description: 'Connectez un compte de trading pour voir vos soldes ici.',
      connectAccount: 'Connecter un compte',
    },
  },
};

export default frFRPortfolio;
