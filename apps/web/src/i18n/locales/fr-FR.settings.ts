import type enUSSettings from './en-US.settings';

/** French texts of the settings screens: typed against English, so a missing or extra key fails the build. */
const frFRSettings: typeof enUSSettings = {
  settings: {
    title: 'Paramètres',
    description: 'Votre profil, votre sécurité, vos notifications et vos préférences.',
    tabs: {
      profile: 'Profil',
      security: 'Sécurité',
      notifications: 'Notifications',
      preferences: 'Préférences',
    },
    username: 'Nom d’utilisateur',
    role: 'Rôle',
    memberSince: 'Membre depuis',
    twoFactor: 'Authentification à deux facteurs',
    currency: 'Devise d’affichage',
    currencyHint: 'Automatique : USD en anglais, EUR en français.',
    currencyAuto: 'Automatique',
    notifications: {
      inApp: 'Dans l’application',
      email: 'E-mail',
      tradingAlerts: 'Alertes de trading',
    },
    saveFailed: 'Impossible d’enregistrer vos paramètres',
    profile: {
      description: 'Votre compte, et le nom que Kairos affiche dans le menu.',
      displayName: 'Nom affiché',
      displayNameHint:
        'Affiché dans le menu à la place de « {{username}} ». Laissez vide pour garder celui-ci.',
      save: 'Enregistrer le profil',
      saved: 'Profil enregistré',
    },
    security: {
      twoFactorDescription:
        'À chaque connexion, Kairos demande aussi un code à 6 chiffres d’une application d’authentification sur votre téléphone.',
      statusOn: 'Activée',
      statusOff: 'Désactivée',
      enable: 'Activer la 2FA',
      scanTitle: 'Scannez ce QR code',
      scanHint:
        'Avec n’importe quelle application d’authentification : Google Authenticator, Microsoft Authenticator, 1Password, Aegis…',
      qrAlt: 'QR code qui ajoute Kairos à une application d’authentification',
      manualCode: 'Impossible de scanner ? Saisissez cette clé à la main',
      codeTitle: 'Saisissez le code affiché par l’application',
      code: 'Code à 6 chiffres',
      verify: 'Vérifier et activer',
      enabled:
        'L’authentification à deux facteurs est activée. Un code vous sera demandé à chaque connexion.',
      disable: 'Désactiver la 2FA',
      disableHint:
        'Saisissez un code actuel de votre application d’authentification pour désactiver l’authentification à deux facteurs.',
      disableConfirm: 'Désactiver la 2FA',
      disabled: 'L’authentification à deux facteurs est désactivée.',
      passwordPrompt: 'Saisissez votre mot de passe pour continuer',
      yourPassword: 'Votre mot de passe',
      continue: 'Continuer',
      recoveryTitle: 'Conservez vos codes de secours',
      recoveryHint:
        'Si vous perdez votre téléphone, chacun de ces codes vous connecte une fois à la place d’un code 2FA. Ils ne sont affichés qu’ici : copiez-les en lieu sûr.',
      recoveryListLabel: 'Codes de secours',
      copyAll: 'Copier les codes',
      recoverySaved: 'Je les ai conservés',
      passwordTitle: 'Mot de passe',
      passwordDescription: 'Au moins 8 caractères. Vos autres sessions sont déconnectées quand il change.',
      currentPassword: 'Mot de passe actuel',
      newPassword: 'Nouveau mot de passe',
      confirmPassword: 'Confirmez le nouveau mot de passe',
      changePassword: 'Changer le mot de passe',
      passwordChanged: 'Votre mot de passe a été changé.',
    },
    sessions: {
      title: 'Appareils connectés',
      description:
        'Chaque appareil ou navigateur connecté à votre compte. Révoquez celui que vous ne reconnaissez pas : il est déconnecté aussitôt. Une connexion dure 30 jours au plus.',
      thisDevice: 'Cet appareil',
      unknownDevice: 'Appareil inconnu',
      address: 'IP {{ip}}',
      signedIn: 'Connecté le {{date}}',
      lastActive: 'dernière activité le {{date}}',
      revoke: 'Révoquer',
      revokeDevice: 'Révoquer {{device}}',
      revoked: 'Cet appareil est déconnecté.',
    },
    notificationsPanel: {
      description: 'Comment Kairos vous prévient, et à quel sujet.',
      channels: 'Canaux',
      topics: 'Sujets',
      saved: 'Notifications enregistrées',
      alwaysOn: 'Toujours actif',
      hints: {
        inApp: 'Mises à jour en direct et messages à l’écran tant que Kairos est ouvert',
        email:
          'E-mails sur vos trades. Les e-mails de sécurité (mot de passe, connexion) sont toujours envoyés',
        tradingAlerts: 'Ordres exécutés, positions ouvertes et fermées',
      },
    },
    preferences: {
      regionTitle: 'Langue et région',
      regionDescription:
        'Textes, montants et dates. Les changements s’appliquent tout de suite et sont enregistrés dans votre compte.',
      appearanceTitle: 'Apparence',
      appearanceDescription: 'Le sombre repose les yeux pendant les longues sessions.',
      timezone: 'Fuseau horaire',
      timezoneHint: 'Les dates et heures sont affichées dans ce fuseau.',
    },
  },
};

export default frFRSettings;
