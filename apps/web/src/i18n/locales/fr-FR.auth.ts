import type enUSAuth from './en-US.auth';

/**
 * French texts of the home page and the log-in, register and reset forms:
 * typed against English, so a missing or extra key fails the build.
 */
const frFRAuth: typeof enUSAuth = {
  home: {
    eyebrow: 'Auto-hébergé · le trading simulé fonctionne hors ligne',
    title: 'Vos signaux TradingView, exécutés par des bots qui vous appartiennent.',
    subtitle:
      'Kairos transforme les alertes TradingView en ordres sur vos comptes de plateforme. Créez des stratégies, associez-leur des bots avec leur propre taille de position, leur levier et leur échelle de take-profits, et suivez chaque trade depuis un seul tableau de bord.',
    register: 'Créer un compte',
    login: 'Se connecter',
    alertCaption: 'Une alerte TradingView, telle que Kairos la reçoit',
    flowSignal: 'Le signal arrive',
    flowBots: 'Chaque bot de la stratégie décide',
    flowOrders: 'Ordres placés une seule fois, suivis jusqu’à l’exécution',
    featuresTitle: 'Ce que fait Kairos',
    featureBotsTitle: 'Des bots pilotés par signaux',
    featureBots:
      'Chaque bot suit une stratégie sur un compte : long, short ou hors marché, avec un montant fixe ou une part du solde, et un objectif de gain mensuel.',
    featureWebhooksTitle: 'Webhooks TradingView',
    featureWebhooks:
      'Dirigez une alerte vers le webhook de votre stratégie. Les alertes sont acquittées en quelques millisecondes, dédoublonnées, mises en file et relancées ; rien n’est placé deux fois.',
    featurePaperTitle: 'Trading simulé hors ligne',
    featurePaper:
      'Une plateforme simulée, avec soldes, frais et carnet d’ordres, est prête dès l’installation. Essayez une stratégie sans clés et sans internet.',
    featureSelfHostedTitle: 'Auto-hébergé',
    featureSelfHosted:
      'Un seul processus et PostgreSQL sur votre propre machine. Les clés de plateforme sont chiffrées au repos et ne quittent jamais votre serveur.',
    footer: 'Kairos — automatisation open source du trading de cryptomonnaies.',
  },
  auth: {
    email: 'E-mail',
    password: 'Mot de passe',
    login: {
      title: 'Connexion à Kairos',
      subtitle: 'Bon retour. Vos bots ont continué à travailler.',
      submit: 'Se connecter',
      submitting: 'Connexion…',
      verify: 'Vérifier et se connecter',
      code: 'Code 2FA',
      codeHint: 'Saisissez le code à 6 chiffres de votre application d’authentification.',
      startOver: 'Utiliser un autre compte',
      useRecoveryCode: 'Utiliser un code de secours',
      useAuthenticatorCode: 'Utiliser le code de mon application d’authentification',
      recoveryCode: 'Code de secours',
      recoveryCodeHint:
        'Saisissez l’un des dix codes de secours conservés à l’activation de la 2FA. Chacun ne sert qu’une fois.',
      noAccount: 'Pas encore de compte ?',
      createOne: 'Créez-en un',
      forgotPassword: 'Mot de passe oublié ?',
    },
    register: {
      title: 'Créez votre compte',
      subtitle: 'Commencez avec un compte simulé : aucune clé de plateforme requise.',
      invited: 'Vous êtes invité : créez votre compte.',
      confirmPassword: 'Confirmez le mot de passe',
      passwordHint: 'Au moins 8 caractères.',
      submit: 'Créer le compte',
      submitting: 'Création de votre compte…',
      haveAccount: 'Vous avez déjà un compte ?',
      login: 'Se connecter',
      created: 'Votre compte est prêt. Connectez-vous pour continuer.',
      firstAdmin: 'Premier administrateur ?',
      setupTokenHint:
        'Vous installez Kairos ? Inscrivez l’adresse de l’administrateur avec le jeton d’installation que le serveur a affiché dans son journal au démarrage (ou celui défini dans KAIROS_ADMIN_SETUP_TOKEN).',
      setupToken: 'Jeton d’installation',
    },
    forgot: {
      title: 'Réinitialiser votre mot de passe',
      subtitle:
        'Saisissez l’e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.',
      submit: 'Envoyer le lien',
      submitting: 'Envoi…',
      sentTitle: 'Consultez votre boîte mail',
      sent: 'Si un compte existe pour {{email}}, un lien de réinitialisation est en route. Il est valable une heure.',
      sendAgain: 'Renvoyer',
      remembered: 'Il vous revient ?',
      backToLogin: 'Retour à la connexion',
    },
    reset: {
      title: 'Choisissez un nouveau mot de passe',
      subtitle: 'Pour le compte {{email}}.',
      newPassword: 'Nouveau mot de passe',
      confirmPassword: 'Confirmez le nouveau mot de passe',
      submit: 'Enregistrer le mot de passe',
      submitting: 'Enregistrement…',
      done: 'Votre mot de passe a été changé. Connectez-vous avec le nouveau.',
      incompleteTitle: 'Ce lien de réinitialisation est incomplet',
      incomplete: 'Ouvrez à nouveau le lien de l’e-mail, ou demandez-en un nouveau.',
      requestNew: 'Demander un nouveau lien',
    },
  },
};

export default frFRAuth;
