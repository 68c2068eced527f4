import type enUSAccounts from './en-US.accounts';

/**
 * French texts of the trading accounts screens:
 * typed against English, so a missing or extra key fails the build.
 */
const frFRAccounts: typeof enUSAccounts = {
  accounts: {
    title: 'Comptes de trading',
    description:
      'Les comptes de plateforme sur lesquels vos bots opèrent. Les clés sont chiffrées et jamais réaffichées.',
    paper: 'Simulé',
    noKeys: 'Pas de clés (simulé)',
    withdrawRiskNote: 'Vous avez confirmé qu’elle ne peut pas retirer · {{time}}',
    balanceUpdated: 'Solde mis à jour le {{time}}',
    marketType: {
      spot: 'Spot',
      future: 'Futures',
    },
    venue: {
      paper: 'Plateforme simulée (sans clés)',
    },
    status: {
      active: 'Connecté',
      error: 'Erreur',
    },
    columns: {
      nickname: 'Nom',
      exchange: 'Plateforme',
      apiKey: 'Clé API',
      balance: 'Solde USDT',
      bots: 'Bots',
      status: 'Statut',
      actions: 'Actions',
    },
    fields: {
      venue: 'Plateforme',
      nickname: 'Nom',
      marketType: 'Marché',
      startingBalance: 'Solde de départ',
      apiKey: 'Clé API',
      apiSecret: 'Secret API',
      passphrase: 'Phrase secrète API',
      sandbox: 'Testnet',
      currentKey: 'Clé API actuelle',
    },
    connect: {
      withdrawRisk: {
        label: 'J’ai vérifié que cette clé ne peut pas retirer de fonds',
        description:
          'La plateforme ne dit pas si cette clé peut effectuer des retraits. Kairos n’a jamais besoin de ce droit : vérifiez qu’il est désactivé dans les réglages de la clé sur la plateforme, puis connectez-vous à nouveau.',
      },
      open: 'Connecter un compte',
      title: 'Connecter un compte de trading',
      description:
        'Le trading simulé fonctionne hors ligne avec un solde simulé. Une vraie plateforme demande une clé API qui peut passer des ordres mais pas retirer.',
      paperHint: 'Des USDT simulés pour passer des ordres : rien de réel n’est en jeu.',
      keysHint:
        'Créez une clé API avec la seule permission de passer des ordres. Kairos la vérifie en lisant votre solde et refuse les clés qui peuvent retirer des fonds.',
      sandboxHint: 'Opérer sur le réseau de test de la plateforme plutôt qu’avec des fonds réels.',
      testnet: {
        testnet:
          '{{venue}} a un testnet pour le marché {{market}} : activez « Testnet » et utilisez des clés de testnet (aucun fonds réel).',
        demo: '{{venue}} propose le trading démo pour le marché {{market}} : activez « Testnet » et utilisez des clés de démo (aucun fonds réel).',
        none: '{{venue}} n’a ni testnet ni trading démo pour le marché {{market}} : ces clés opèrent sur des fonds réels.',
        testnetToggle: 'Clés de testnet : rien de réel n’est en jeu.',
        demoToggle: 'Clés de trading démo : rien de réel n’est en jeu.',
        unavailable: 'Indisponible : {{venue}} n’a pas de testnet pour le marché {{market}}.',
      },
      submit: 'Connecter',
      submitting: 'Vérification auprès de la plateforme…',
      connected: '{{name}} est connecté',
    },
    edit: {
      short: 'Modifier',
      action: 'Modifier {{name}}',
      title: 'Modifier {{name}}',
      rotateKeys: 'Remplacer les clés',
      keepKeys: 'Garder les clés actuelles',
      newKeys: 'Nouvelle clé API',
      rotateHint: 'La nouvelle clé est vérifiée auprès de la plateforme avant de remplacer l’actuelle.',
      saved: '{{name}} est enregistré',
    },
    delete: {
      short: 'Supprimer',
      action: 'Supprimer {{name}}',
      title: 'Supprimer {{name}} ?',
      noBots:
        'Le compte, ses clés chiffrées et son historique de trades sont supprimés de Kairos. Rien ne change sur la plateforme.',
      withBots_one:
        '{{count}} bot opère sur ce compte. Le compte ne peut être supprimé qu’avec lui ; les clés et l’historique de trades partent aussi. Rien ne change sur la plateforme.',
      withBots_other:
        '{{count}} bots opèrent sur ce compte. Le compte ne peut être supprimé qu’avec eux ; les clés et l’historique de trades partent aussi. Rien ne change sur la plateforme.',
      alsoDeleteBots_one: 'Supprimer aussi son bot',
      alsoDeleteBots_other: 'Supprimer aussi ses {{count}} bots',
      confirm: 'Supprimer le compte',
      alsoDeleteItsBots: 'Supprimer aussi ses bots',
      confirmWithItsBots: 'Supprimer le compte et les bots',
      confirmWithBots_one: 'Supprimer le compte et le bot',
      confirmWithBots_other: 'Supprimer le compte et les {{count}} bots',
      deleted: '{{name}} est supprimé',
    },
    empty: {
      title: 'Aucun compte de trading pour l’instant',
      description:
        'Commencez par un compte simulé : pas de clés, un solde fictif, et il fonctionne hors ligne. Connectez une plateforme quand vous serez prêt.',
      connectPaper: 'Connecter un compte simulé',
    },
  },
};

export default frFRAccounts;
