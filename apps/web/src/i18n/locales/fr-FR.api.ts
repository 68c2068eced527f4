import type enUSApi from './en-US.api';

/**
 * French texts of the server's messages by code:
 * typed against English, so a missing or extra key fails the build.
 */
const frFRApi: typeof enUSApi = {
  apiMessages: {
    VALIDATION_ERROR: '{{reason}}',
    VALIDATION_ERROR_invalidRequest: 'Requête invalide',
    VALIDATION_ERROR_price: 'Veuillez saisir un prix valide',
    VALIDATION_ERROR_botMismatch: 'botId ne correspond pas au trade',
    VALIDATION_ERROR_strategyKeyRequired: 'strategyKey est obligatoire',
    VALIDATION_ERROR_strategyKeyMismatch: 'strategyKey dans le corps ne correspond pas à l’URL',
    VALIDATION_ERROR_timestamp: 'timestamp n’est pas une date',
    VALIDATION_ERROR_commonPassword: 'Ce mot de passe est trop courant. Veuillez en choisir un autre.',
    VALIDATION_ERROR_nulCharacter: 'Le texte ne peut pas contenir le caractère NUL (U+0000)',
    VALIDATION_ERROR_alertReasonRequired: 'Un motif est requis pour marquer une alerte comme abandonnée',
    VALIDATION_ERROR_idempotencyKey: 'Idempotency-Key doit compter de 1 à 200 caractères imprimables',
    MALFORMED_JSON: 'Le corps de la requête n’est pas du JSON valide',
    MALFORMED_JSON_empty: 'Le corps ne peut pas être vide quand le content-type est « application/json »',
    MALFORMED_JSON_alertBody: 'Le corps de l’alerte doit être du JSON',
    PAYLOAD_TOO_LARGE: 'Le corps de la requête est trop volumineux',
    UNSUPPORTED_MEDIA_TYPE: 'Type de contenu non pris en charge',
    BAD_REQUEST: '{{reason}}',
    BAD_REQUEST_malformedUrl: 'URL mal formée',
    BAD_REQUEST_contentLength: 'La taille du corps ne correspond pas au Content-Length',
    NOT_FOUND: '{{reason}}',
    NOT_FOUND_nothing: 'Introuvable',
    NOT_FOUND_route: 'Route {{method}} {{path}} introuvable',
    NOT_FOUND_market: 'Marché {{symbol}} introuvable',
    NOT_FOUND_account: 'Compte de trading introuvable',
    NOT_FOUND_alert: 'Alerte introuvable',
    NOT_FOUND_bot: 'Bot introuvable',
    NOT_FOUND_invoice: 'Facture introuvable',
    NOT_FOUND_record: 'Relevé de facturation introuvable',
    NOT_FOUND_strategy: 'Stratégie introuvable',
    NOT_FOUND_trade: 'Trade introuvable',
    NOT_FOUND_user: 'Utilisateur introuvable',
    NOT_FOUND_session: 'Session introuvable',
    NOT_FOUND_invite: 'Invitation introuvable',
    RATE_LIMITED: '{{reason}}',
    RATE_LIMITED_tooManyRequests: 'Trop de requêtes',
    RATE_LIMITED_failedAttempts: 'Trop de tentatives échouées. Réessayez plus tard.',
    RATE_LIMITED_userBudget: 'Trop de requêtes depuis votre compte. Réessayez dans {{seconds}} s.',
    QUOTA_REACHED:
      'Vous avez atteint une limite de votre compte. Demandez à votre administrateur de la relever.',
    QUOTA_REACHED_strategies:
      'Vous avez atteint la limite de {{max}} stratégies. Demandez à votre administrateur de la relever.',
    QUOTA_REACHED_tradingAccounts:
      'Vous avez atteint la limite de {{max}} comptes de trading. Demandez à votre administrateur de la relever.',
    QUOTA_REACHED_bots:
      'Vous avez atteint la limite de {{max}} bots. Demandez à votre administrateur de la relever.',
    QUOTA_REACHED_eventStreams:
      'Votre compte a déjà {{max}} connexions en direct ouvertes. Fermez un onglet ou une fenêtre et réessayez.',
    INTERNAL: 'Erreur interne du serveur',
    IDEMPOTENCY_IN_FLIGHT:
      'Une requête avec cette Idempotency-Key est encore en cours de traitement : réessayez dans un instant',
    IDEMPOTENCY_KEY_REUSED: 'Cette Idempotency-Key a déjà servi pour une autre requête',
    UNAUTHORIZED: 'Non autorisé',
    UNAUTHORIZED_authenticationRequired: 'Authentification requise',
    UNAUTHORIZED_signInOrReset: 'Connectez-vous, ou utilisez le lien de l’e-mail de réinitialisation',
    INVALID_TOKEN: 'Session expirée ou révoquée. Veuillez vous reconnecter.',
    INVALID_CREDENTIALS: 'E-mail ou mot de passe incorrect',
    INVALID_CREDENTIALS_currentPassword: 'Le mot de passe actuel est incorrect',
    INVALID_2FA_CODE: 'Code 2FA invalide',
    INVALID_REFRESH_TOKEN: 'Jeton de rafraîchissement invalide',
    REFRESH_REUSED:
      'Jeton de rafraîchissement déjà utilisé ; toutes les sessions de cette connexion ont été révoquées',
    REFRESH_EXPIRED: 'Jeton de rafraîchissement expiré',
    INVALID_RESET_TOKEN: 'Ce lien de réinitialisation est invalide ou a expiré',
    INVALID_WEBHOOK_SECRET: 'Clé de stratégie ou secret invalide',
    FORBIDDEN: 'Accès refusé',
    FORBIDDEN_adminRequired: 'Rôle administrateur requis',
    FORBIDDEN_ownAccountOnly: 'Vous ne pouvez modifier que votre propre compte',
    FORBIDDEN_userMismatch: 'userId ne correspond pas à l’utilisateur connecté',
    FORBIDDEN_suspended: 'Ce compte est suspendu. Contactez votre administrateur.',
    FORBIDDEN_strategyOwnerOnly: 'Seul le propriétaire peut modifier cette stratégie',
    EMAIL_TAKEN: 'Un compte existe déjà avec cet e-mail',
    SETUP_TOKEN_INVALID:
      'Cette adresse est réservée au premier administrateur : saisissez le jeton d’installation affiché dans le journal du serveur',
    REGISTRATION_CLOSED:
      'L’inscription se fait sur invitation : demandez un lien d’invitation à l’administrateur',
    INVITE_INVALID:
      'Ce lien d’invitation ne fonctionne plus : il a été utilisé, révoqué ou a expiré. Demandez-en un nouveau à l’administrateur.',
    INVITE_NOT_PENDING: 'Cette invitation ne peut plus être révoquée',
    INVITE_NOT_PENDING_used: 'Cette invitation a déjà été utilisée',
    INVITE_NOT_PENDING_expired: 'Cette invitation a déjà expiré',
    INVITE_NOT_PENDING_revoked: 'Cette invitation a déjà été révoquée',
    TWO_FA_ENABLED: 'La 2FA est déjà activée',
    TWO_FA_DISABLED: 'La 2FA n’est pas activée',
    TWO_FA_NOT_STARTED: 'Commencez d’abord l’activation de la 2FA',
    UNSUPPORTED_EXCHANGE: '{{error}}',
    UNSUPPORTED_EXCHANGE_unknown: 'Plateforme inconnue',
    UNSUPPORTED_EXCHANGE_notOffered:
      '{{exchange}} n’est pas encore proposé : Kairos ne connecte que les plateformes que sa suite de tests prouve (Binance, Bybit, OKX)',
    PASSPHRASE_REQUIRED: '{{exchange}} demande aussi la passphrase de l’API',
    KEY_CAN_WITHDRAW:
      'Cette clé API peut retirer des fonds. Créez une clé qui peut seulement passer des ordres, sans retraits.',
    WITHDRAW_PERMISSION_UNKNOWN:
      '{{exchange}} ne le dit pas, et Kairos ne peut pas savoir si cette clé API peut retirer des fonds. Vérifiez que les retraits sont désactivés pour la clé, puis confirmez que vous acceptez le risque.',
    KEY_CANNOT_TRADE:
      'Cette clé API ne peut pas opérer en {{marketType}} sur {{exchange}}. Autorisez le trading {{marketType}} pour la clé, puis reconnectez.',
    MARGIN_MODE_SHARED:
      'Sur {{exchange}}, le mode de marge est celui de tout le compte : le bot « {{bot}} » de ce compte opère en {{marginMode}}. Utilisez le même mode de marge, ou un autre compte.',
    HEDGE_MODE:
      '{{exchange}} est en mode couverture (positions longue et courte séparées). Kairos ouvre des positions à sens unique : passez le compte futures en mode unidirectionnel, puis reconnectez.',
    HEDGE_MODE_binance:
      'Binance Futures est en mode couverture (positions longue et courte séparées). Kairos ouvre des positions à sens unique : dans Binance Futures, ouvrez Préférences → Mode de position, choisissez le mode unidirectionnel, puis reconnectez.',
    HEDGE_MODE_bybit:
      'Bybit est en mode couverture (deux sens) pour les perpétuels USDT. Kairos ouvre des positions à sens unique : dans Bybit Dérivés, ouvrez Paramètres → Mode de position, choisissez le mode unidirectionnel pour les perpétuels USDT, puis reconnectez.',
    HEDGE_MODE_okx:
      'OKX est en mode long/short. Kairos ouvre des positions à sens unique : dans OKX, ouvrez Paramètres de trading → Mode de position, choisissez le mode unidirectionnel (net), puis reconnectez.',
    KEY_PAIR_REQUIRED: 'Remplacez la clé API et le secret ensemble',
    EXCHANGE_AUTH_FAILED: '{{exchange}} a refusé la clé API : {{reason}}',
    EXCHANGE_UNAVAILABLE: 'Impossible de joindre {{exchange}} : {{reason}}',
    EXCHANGE_RATE_LIMITED:
      '{{exchange}} limite les requêtes pour le moment : Kairos relira le solde plus tard',
    EXCHANGE_RATE_LIMITED_wait:
      '{{exchange}} a demandé à Kairos d’attendre {{seconds}} s avant de l’appeler à nouveau',
    EXCHANGE_REFUSED: '{{exchange}} a refusé de donner le solde : {{reason}}',
    ACCOUNT_KEYS_UNREADABLE:
      'Les clés API enregistrées pour ce compte ne peuvent pas être ouvertes : saisissez-les à nouveau',
    BALANCE_REFRESH_FAILED: 'Kairos n’a pas pu lire le solde : {{reason}}',
    ACCOUNT_HAS_OPEN_TRADES_one:
      'Ce compte a {{count}} trade ouvert : clôturez-le avant de supprimer le compte',
    ACCOUNT_HAS_OPEN_TRADES_other:
      'Ce compte a {{count}} trades ouverts : clôturez-les avant de supprimer le compte',
    ACCOUNT_HAS_BOTS_one:
      '{{count}} bot opère sur ce compte. Supprimez-le avec le compte (bots=delete) ou déplacez-le d’abord.',
    ACCOUNT_HAS_BOTS_other:
      '{{count}} bots opèrent sur ce compte. Supprimez-les avec le compte (bots=delete) ou déplacez-les d’abord.',
    STRATEGY_RETIRED: 'Cette stratégie est retirée',
    STRATEGY_KEY_TAKEN: 'Cette clé de stratégie est déjà prise',
    STRATEGY_KEY_UNAVAILABLE: 'Cette clé de stratégie ne peut pas être utilisée. Choisissez-en une autre.',
    STRATEGY_IN_USE_one:
      '{{count}} bot utilise cette stratégie. Supprimez-le ou déplacez-le d’abord, ou retirez la stratégie.',
    STRATEGY_IN_USE_other:
      '{{count}} bots utilisent cette stratégie. Supprimez-les ou déplacez-les d’abord, ou retirez la stratégie.',
    LEVERAGE_NEEDS_FUTURES: 'Un levier au-delà de 100 % demande un compte futures',
    OVER_ALLOCATED: 'Ce compte est déjà alloué à {{taken}} % à d’autres bots : il reste au plus {{left}} %',
    FUTURES_PAIR_TAKEN:
      'Le bot « {{bot}} » opère déjà sur {{pair}} avec ce compte futures, qui ne tient qu’une position par symbole : arrêtez-le d’abord ou utilisez un autre compte',
    BOT_NAME_TAKEN: 'Un bot nommé « {{name}} » existe déjà sur ce compte',
    POSITION_TAKEN:
      'Ce compte futures tient déjà une position sur {{symbol}} pour un autre trade, et un compte futures ne tient qu’une position par symbole : fermez d’abord ce trade ou utilisez un autre compte',
    NO_SIZING: 'Indiquez un montant fixe ou un pourcentage du compte',
    BOT_HAS_OPEN_TRADE: 'Ce bot a un trade ouvert : arrêtez-le d’abord en clôturant la position',
    BOT_HAS_OPEN_TRADE_move:
      'Clôturez le trade ouvert avant de déplacer ce bot vers un autre compte ou une autre stratégie',
    STALE_SIGNAL: 'Signal périmé : envoyé il y a {{lag}} s, la stratégie accepte {{max}} s',
    STALE_SIGNAL_future: 'L’horodatage du signal est dans le futur',
    SHORT_NEEDS_FUTURES: 'Les trades short demandent un compte futures',
    ORDER_TOO_SMALL: 'Veuillez saisir un montant valide',
    ORDER_TOO_SMALL_zeroQuantity: 'La quantité de l’ordre est arrondie à zéro',
    ORDER_TOO_SMALL_belowMinAmount: 'La quantité {{amount}} est sous le minimum de {{min}}',
    ORDER_TOO_SMALL_belowMinNotional: 'La valeur {{value}} est sous le minimum de {{min}}',
    INVALID_STOP_LOSS: '{{reason}}',
    INVALID_STOP_LOSS_long: 'Le stop-loss d’un trade long doit être sous le prix actuel ({{price}})',
    INVALID_STOP_LOSS_short: 'Le stop-loss d’un trade short doit être au-dessus du prix actuel ({{price}})',
    INVALID_TAKE_PROFITS: '{{reason}}',
    INVALID_TAKE_PROFITS_fee: 'Le pourcentage de frais doit être compris entre 0 et 100',
    INVALID_TAKE_PROFITS_unknownRole: 'Rôle de take-profit inconnu : {{role}}',
    INVALID_TAKE_PROFITS_twice: '{{name}} est configuré deux fois',
    INVALID_TAKE_PROFITS_negativeSize: 'La taille de {{name}} ne peut pas être négative',
    INVALID_TAKE_PROFITS_allZero: 'Les tailles de take-profit ne peuvent pas toutes être nulles',
    TRADE_NOT_OPEN: 'Seul un trade ouvert peut être modifié',
    TRADE_NOT_OPEN_complete: 'Seul un trade ouvert peut être clôturé',
    TRADE_NOT_CLOSED: 'Clôturez le trade avant de le supprimer',
    TRADE_HAS_LIVE_ORDERS: 'Ce trade a encore des ordres sur la plateforme',
    TRADE_ALREADY_OPEN: 'Ce bot a déjà un trade ouvert',
    COMPLETE_FAILED: 'Impossible de clôturer le trade : {{error}}',
    NO_PRICE: 'Aucun prix pour {{symbol}}',
    MARGIN_NOT_SET:
      'Impossible de régler la marge {{marginMode}} à {{leverage}}× sur {{symbol}} : {{reason}}',
    SIZING_REFUSED: '{{reason}}',
    SIZING_REFUSED_noRule: 'Ni quantité ni règle de taille',
    SIZING_REFUSED_tooSmallForStop:
      'Trop petit pour son stop : au prix du stop {{stop}}, la sortie serait refusée ({{error}})',
    SIZING_REFUSED_price: 'Le prix doit être supérieur à zéro',
    SIZING_REFUSED_leverage: 'Le levier doit être supérieur à zéro',
    SIZING_REFUSED_noBalance: 'Aucun solde en stablecoin disponible',
    SIZING_REFUSED_zeroSize: 'La taille d’ordre du bot est nulle',
    SIZING_REFUSED_insufficientBalance:
      'Solde insuffisant : l’ordre demande {{needed}} et {{available}} est disponible',
    SIZING_REFUSED_zeroQuantity: 'La quantité de l’ordre est arrondie à zéro',
    SIZING_REFUSED_belowMinAmount: 'La quantité {{amount}} est sous le minimum de {{min}}',
    SIZING_REFUSED_belowMinNotional: 'La valeur {{value}} est sous le minimum de {{min}}',
    ORDER_REJECTED: '{{reason}}',
    ORDER_REJECTED_rejected: 'Ordre refusé',
    INVALID_SYMBOL: 'Symbole de marché invalide : {{symbol}}',
    INVALID_DECIMAL: 'Montant décimal invalide : {{input}}',
    INVALID_FILLS: '{{reason}}',
    INVALID_ORDER_TRANSITION: 'Un ordre ne peut pas passer de {{from}} à {{to}}',
    INVALID_TRADE_TRANSITION: 'Un trade ne peut pas passer de {{from}} à {{to}}',
    TAKE_PROFIT_NOT_PUSHABLE: '{{name}} ne peut pas être envoyé au marché',
    TAKE_PROFIT_NOT_PUSHABLE_waiting: 'En attente de l’exécution de {{previousName}}',
    PUSH_FAILED: 'Échec de l’envoi de {{name}} : {{error}}',
    TAKE_PROFIT_PUSHED: '{{name}} envoyé au marché avec succès ! ID de l’ordre : {{orderId}}',
    TAKE_PROFIT_PUSHABLE: '{{name}} peut être envoyé au marché',
    RETRYABLE: '{{reason}}',
    UNKNOWN_OUTCOME: '{{reason}}',
    AUTHENTICATION: '{{reason}}',
    INVALID_ORDER: '{{reason}}',
    UNKNOWN_SYMBOL: '{{reason}}',
    UNKNOWN_SYMBOL_notTraded: '{{symbol}} n’est pas négocié sur {{exchange}}',
    UNKNOWN_SYMBOL_noMarket: '{{exchange}} n’a pas de marché {{marketType}} {{symbol}}',
    INSUFFICIENT_FUNDS: '{{reason}}',
    INSUFFICIENT_FUNDS_balance: '{{asset}} insuffisant : {{needed}} nécessaires, {{available}} disponibles',
    INSUFFICIENT_FUNDS_margin:
      'Marge insuffisante : {{needed}} {{asset}} nécessaires, {{available}} disponibles',
    ORDER_NOT_FOUND: '{{reason}}',
    UNSUPPORTED: '{{reason}}',
    UNSUPPORTED_unknownExchange: 'Plateforme inconnue : {{exchange}}',
    UNSUPPORTED_marketType: '{{exchange}} ne propose pas le trading {{marketType}}',
    UNSUPPORTED_noSandbox: '{{exchange}} n’a pas de sandbox pour {{marketType}}',
    VENUE_ERROR: '{{reason}}',
    ORDER_LOST: 'La plateforme n’a jamais reçu cet ordre',
    ORDER_FORGOTTEN: 'La plateforme ne connaît plus cet ordre',
    ORDER_FAILED: '{{reason}}',
    STOP_LOST: 'La plateforme n’a jamais reçu cet ordre stop',
    STOP_NOT_FOUND_ONCE: 'La plateforme a répondu une fois qu’elle n’avait pas cet ordre stop',
    STOP_GONE: 'La plateforme n’a plus cet ordre stop',
    POSITION_EXCESS:
      'La plateforme détient plus que les trades de Kairos : {{atVenue}} {{symbol}} {{side}} sur la plateforme, {{inKairos}} dans Kairos. Laissé tel quel : Kairos ne clôture jamais ce qu’il n’a pas ouvert.',
    POSITION_EXCESS_net:
      'La plateforme détient plus que les trades de Kairos, ou moins : sa position nette sur {{symbol}} est de {{atVenue}}, celle des trades de Kairos de {{inKairos}}. Laissé tel quel.',
    POSITION_SHORTFALL_UNEXPLAINED:
      'La plateforme détient moins que ce trade : {{atVenue}} {{symbol}} {{side}} sur la plateforme, {{inKairos}} dans Kairos, et elle ne liste aucune exécution qui ait clôturé le reste. Kairos ne comptabilise rien sur une supposition et laisse le stop-loss et les take-profits en place : vérifiez la position sur la plateforme.',
    PARTLY_CLOSED_ON_VENUE:
      '{{amount}} {{symbol}} de cette position ont été clôturés sur la plateforme, hors de Kairos : comptabilisés d’après les exécutions de la plateforme. Son stop-loss suit la taille réduite ; ses take-profits gardent la leur (ils ne font que réduire la position et ne clôturent jamais plus que ce que détient la plateforme).',
    INVALID_ALERT_TRANSITION: '{{reason}}',
    INVALID_ALERT_TRANSITION_markDead_in_progress:
      'Impossible d’abandonner une alerte en cours de traitement',
    INVALID_ALERT_TRANSITION_markDead_succeeded: 'Impossible d’abandonner une alerte réussie',
    INVALID_ALERT_TRANSITION_markDead_dead: 'Cette alerte est déjà abandonnée',
    INVALID_ALERT_TRANSITION_resume_queued: 'Impossible de reprendre une alerte déjà dans la file',
    INVALID_ALERT_TRANSITION_resume_in_progress: 'Impossible de reprendre une alerte en cours de traitement',
    INVALID_ALERT_TRANSITION_resume_succeeded: 'Impossible de reprendre une alerte réussie',
    ALERT_REASON_REQUIRED: 'Un motif est requis pour marquer une alerte comme abandonnée',
    ALERT_CHANGED: 'L’alerte a changé pendant votre action ; rechargez puis réessayez',
    PERIOD_NOT_OVER: '{{period}} n’est pas encore terminé',
    PLAN_PERCENT_REQUIRED: 'Indiquez un pourcentage pour créer la formule',
    INVALID_BILLING_INPUT: 'Le pourcentage de la formule doit être compris entre 0 et 100',
    BILLING_PERIOD_NOT_PROCESSED: '{{period}} n’est pas encore traité pour cet utilisateur',
    NO_FEE_DUE: 'Rien à facturer pour {{period}} : aucun frais n’est dû',
    INVALID_INVOICE_TRANSITION: 'Impossible de {{move}} une facture à l’état {{status}}',
    INVALID_INVOICE_TRANSITION_alreadyPaid: 'Cette facture est déjà payée',
    INVALID_INVOICE_TRANSITION_voidNotPayable: 'Une facture annulée ne peut pas être payée',
    INVALID_INVOICE_TRANSITION_paidNotVoidable: 'Une facture payée ne peut pas être annulée',
    INVALID_INVOICE_TRANSITION_alreadyVoid: 'Cette facture est déjà annulée',
    INVOICE_CHANGED: 'La facture a changé entre-temps ; rechargez puis réessayez',
  },
};

export default frFRApi;
