import type enUSStrategies from './en-US.strategies';

/**
 * French texts of the strategies screens:
 * typed against English, so a missing or extra key fails the build.
 */
const frFRStrategies: typeof enUSStrategies = {
  strategies: {
    title: 'Stratégies',
    description:
      'Une stratégie reçoit les alertes TradingView ; chaque bot qui la suit agit sur ses signaux. Les stratégies publiques viennent des administrateurs.',
    managedByAdmin: 'Gérée par un administrateur',
    noStopLoss: 'Aucun',
    tpTitle: 'Part de la position : {{size}}',
    status: {
      active: 'Active',
      paused: 'En pause',
      retired: 'Retirée',
    },
    visibility: {
      public: 'Publique',
      private: 'Privée',
    },
    columns: {
      name: 'Stratégie',
      pair: 'Paire',
      timeFrame: 'Unité de temps',
      takeProfits: 'Take-profits',
      stopLoss: 'Stop-loss',
      status: 'Statut',
      actions: 'Actions',
    },
    fields: {
      nickname: 'Nom',
      key: 'Clé de la stratégie',
      tradeCurrency: 'Devise négociée',
      stableCoin: 'Stablecoin',
      timeFrame: 'Unité de temps',
      status: 'Statut',
      takeProfits: 'Échelle de take-profits',
      stopLoss: 'Stop-loss',
      maxLag: 'Délai maximal du signal',
      breakEven: 'Remonter le stop au prix d’entrée après TP1',
      stopLimitOffset: 'Écart du stop-limit',
    },
    errors: {
      key: 'Utilisez de 3 à 64 lettres, chiffres, « - » ou « _ »',
      currency: 'Veuillez saisir un code de devise, par exemple BTC',
      takeProfitSizes: 'Les tailles des take-profits dépassent 100 % au total',
      maxLag: 'Saisissez un nombre de secondes entre 5 et 86 400',
      stopLimitOffset: 'Saisissez un pourcentage entre 0,05 et 10',
    },
    form: {
      open: 'Nouvelle stratégie',
      createTitle: 'Nouvelle stratégie',
      editTitle: 'Modifier {{name}}',
      edit: 'Modifier {{name}}',
      editShort: 'Modifier',
      description:
        'Les signaux arrivent de TradingView ; l’échelle et le stop-loss s’appliquent à chaque bot de cette stratégie.',
      create: 'Créer la stratégie',
      created: '{{name}} est créée',
      saved: '{{name}} est enregistrée',
      keyHint: 'Fait partie de l’URL du webhook. Laissez vide pour la déduire du nom.',
      stopLossHint: 'Distance depuis l’entrée, contre la position. Vide : pas de stop-loss.',
      maxLagHint: 'Les signaux plus anciens sont refusés.',
      stopLimitOffsetHint:
        'Sur le spot, le stop posé sur la plateforme est un stop-limit : une fois le stop atteint, l’ordre de vente est placé à cet écart en dessous (un achat au-dessus) pour être exécuté même si le marché va vite. De 0,05 à 10 %, en général 0,5 %.',
      seconds: 's',
      breakEvenHint: 'Dès que TP1 est exécuté, le stop passe au prix d’entrée.',
      noTakeProfits: 'Aucun take-profit : les trades se clôturent sur un signal de sortie ou au stop-loss.',
      addTp: 'Ajouter un take-profit',
      removeTp: 'Retirer {{name}}',
      distance: 'Distance depuis l’entrée',
      size: 'Part de la position',
      ofPosition: '% pos.',
      tpDistance: '{{name}} : distance depuis l’entrée, en %',
      tpSize: '{{name}} : part de la position, en %',
      sizeTotal: 'L’échelle clôture {{total}} de la position',
    },
    delete: {
      short: 'Supprimer',
      action: 'Supprimer {{name}}',
      title: 'Supprimer {{name}} ?',
      message:
        'Son webhook n’accepte plus d’alertes. Une stratégie encore suivie par des bots ne peut pas être supprimée : retirez-la plutôt.',
      confirm: 'Supprimer la stratégie',
      deleted: '{{name}} est supprimée',
      failed: 'Impossible de supprimer {{name}}',
    },
    empty: {
      title: 'Aucune stratégie pour l’instant',
      description: 'Créez une stratégie pour obtenir une URL de webhook pour vos alertes TradingView.',
    },
    webhook: {
      short: 'Webhook',
      open: 'Webhook de {{name}}',
      title: 'Webhook de {{name}}',
      description: 'Collez ces éléments dans une alerte TradingView et Kairos reçoit ses signaux.',
      url: 'URL du webhook',
      secret: 'Secret',
      show: 'Afficher',
      hide: 'Masquer',
      copy: 'Copier',
      copied: 'Copié',
      copyFailed: 'Copie impossible : sélectionnez le texte et copiez-le à la main',
      copyUrl: 'Copier l’URL du webhook',
      copySecret: 'Copier le secret',
      copyMessage: 'Copier le message d’alerte',
      secretHint: 'Quiconque détient ce secret peut envoyer des signaux à cette stratégie. Gardez-le privé.',
      notOwner: 'Seul le propriétaire de cette stratégie voit son secret.',
      rotate: 'Renouveler le secret',
      rotateTitle: 'Renouveler le secret du webhook ?',
      rotateMessage:
        'Les alertes qui envoient encore le secret actuel de {{name}} sont refusées à partir de maintenant : mettez-les à jour avec le nouveau message.',
      rotated: 'Nouveau secret prêt : mettez à jour vos alertes TradingView',
      rotateFailed: 'Impossible de renouveler le secret',
      message: 'Message d’alerte',
      actions: {
        long: 'Long',
        short: 'Short',
        exit: 'Sortie',
        strategy: 'Depuis la stratégie',
      },
      actionHints: {
        long: 'Ouvre un long, ou retourne un short.',
        short: 'Ouvre un short, ou retourne un long.',
        exit: 'Clôture la position ouverte.',
        strategy: 'Pour une stratégie Pine : TradingView remplit buy ou sell.',
      },
      howTo: 'Dans TradingView',
      step1: 'Créez une alerte sur votre graphique ou votre stratégie.',
      step2: 'Dans Notifications, cochez URL du webhook et collez l’URL ci-dessus.',
      step3: 'Collez le message d’alerte comme message de l’alerte : une alerte par action.',
    },
  },
};

export default frFRStrategies;
