import type enUSMessages from './en-US.messages';

const frFRMessages: typeof enUSMessages = {
  'This field is required': 'Ce champ est obligatoire',
  'Please enter a valid email address': 'Veuillez saisir une adresse e-mail valide',
  'Password must be at least 8 characters': 'Le mot de passe doit contenir au moins 8 caractères',
  'Password must be at most 128 characters': 'Le mot de passe doit contenir au plus 128 caractères',
  'Passwords must match': 'Les mots de passe doivent correspondre',
  'Please enter a valid amount': 'Veuillez saisir un montant valide',
  'Please enter a valid price': 'Veuillez saisir un prix valide',
  'Please enter the 6-digit code': 'Veuillez saisir le code à 6 chiffres',
  'Starting balance must be between 0 and 1,000,000,000,000':
    'Le solde de départ doit être compris entre 0 et 1 000 000 000 000',
  Unauthorized: 'Non autorisé',
  'HTTP error! status: {{status}}': 'Erreur HTTP ! Statut : {{status}}',
  'Request failed': 'La requête a échoué',
  'Failed to fetch': 'Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.',
  'Login failed': 'Échec de la connexion',
  'Login failed: malformed response': 'Échec de la connexion : réponse mal formée',
  '2FA code required': 'Code 2FA requis',
  'Invalid response from server': 'Réponse du serveur invalide',
  'Registration failed': 'Échec de l’inscription',
  'Missing user email': 'E-mail de l’utilisateur manquant',
  'Failed to enable 2FA': 'Impossible d’activer la 2FA',
  '2FA verification failed': 'Échec de la vérification 2FA',
  'Failed to disable 2FA': 'Impossible de désactiver la 2FA',
  'Failed to send reset email': 'Impossible d’envoyer l’e-mail de réinitialisation',
  'Failed to change password': 'Impossible de changer le mot de passe',
  'Failed to load bots': 'Impossible de charger les bots',
  'No refresh token available': 'Aucun jeton de rafraîchissement disponible',
  'Failed to push take profit to market': 'Impossible d’envoyer le take profit au marché',
  'Network error occurred': 'Une erreur réseau est survenue',
  'Invalid email or password': 'E-mail ou mot de passe incorrect',
  'Invalid 2FA code': 'Code 2FA invalide',
  'Too many failed attempts. Try again later.': 'Trop de tentatives échouées. Réessayez plus tard.',
  'Too many requests': 'Trop de requêtes',
  'An account with this email already exists': 'Un compte existe déjà avec cet e-mail',
  'This password is too common. Please choose another one.':
    'Ce mot de passe est trop courant. Veuillez en choisir un autre.',
  'This account is suspended. Contact your administrator.':
    'Ce compte est suspendu. Contactez votre administrateur.',
  'This reset link is invalid or has expired': 'Ce lien de réinitialisation est invalide ou a expiré',
  'Current password is incorrect': 'Le mot de passe actuel est incorrect',
  'Session expired or revoked. Please log in again.':
    'Session expirée ou révoquée. Veuillez vous reconnecter.',
  'Authentication required': 'Authentification requise',
  '2FA is already enabled': 'La 2FA est déjà activée',
  '2FA is not enabled': 'La 2FA n’est pas activée',
  'Start 2FA setup first': 'Commencez d’abord l’activation de la 2FA',
  'A reset token or your current password is required':
    'Un lien de réinitialisation ou votre mot de passe actuel est requis',
  'Sign in, or use the link from the reset mail':
    'Connectez-vous, ou utilisez le lien de l’e-mail de réinitialisation',
  'You can only change your own account': 'Vous ne pouvez modifier que votre propre compte',
  'Unknown time zone': 'Fuseau horaire inconnu',
  'Internal server error': 'Erreur interne du serveur',
  // Trading accounts, strategies and bots (server messages a user can meet on those screens).
  'Bot not found': 'Bot introuvable',
  'Strategy not found': 'Stratégie introuvable',
  'Trading account not found': 'Compte de trading introuvable',
  'Unknown exchange': 'Exchange inconnu',
  'Leverage above 100% needs a futures account': 'Un levier au-delà de 100 % demande un compte futures',
  'Set a fixed amount or a portfolio percentage': 'Indiquez un montant fixe ou un pourcentage du compte',
  'This strategy is retired': 'Cette stratégie est retirée',
  'This strategy key is already taken': 'Cette clé de stratégie est déjà prise',
  'Only the owner can change this strategy': 'Seul le propriétaire peut modifier cette stratégie',
  'Rotate the API key and secret together': 'Remplacez la clé API et le secret ensemble',
  'Close the open trade before moving this bot to another account or strategy':
    'Clôturez le trade ouvert avant de déplacer ce bot vers un autre compte ou une autre stratégie',
  'This bot has an open trade: stop it with "close position" first':
    'Ce bot a un trade ouvert : arrêtez-le d’abord en clôturant la position',
  'This API key can withdraw funds. Create a key with trading permission only, without withdrawals.':
    'Cette clé API peut retirer des fonds. Créez une clé qui peut seulement trader, sans retraits.',
  // Admin consoles: alerts, trade control, billing (server messages and per-bot outcomes).
  'Alert not found': 'Alerte introuvable',
  'A reason is required to mark an alert dead':
    'Un motif est requis pour marquer une alerte comme abandonnée',
  'The alert changed while you acted on it; reload and try again':
    'L’alerte a changé pendant votre action ; rechargez puis réessayez',
  'Cannot mark dead an alert that is in progress':
    'Impossible d’abandonner une alerte en cours de traitement',
  'Cannot mark dead an alert that is succeeded': 'Impossible d’abandonner une alerte réussie',
  'Cannot mark dead an alert that is dead': 'Cette alerte est déjà abandonnée',
  'Cannot resume an alert that is queued': 'Impossible de reprendre une alerte déjà dans la file',
  'Cannot resume an alert that is in progress': 'Impossible de reprendre une alerte en cours de traitement',
  'Cannot resume an alert that is succeeded': 'Impossible de reprendre une alerte réussie',
  'Nothing to do: bot is inactive': 'Rien à faire : le bot est inactif',
  'Nothing to do: monthly goal reached': 'Rien à faire : objectif mensuel atteint',
  'Nothing to do: already long': 'Rien à faire : déjà en long',
  'Nothing to do: already short': 'Rien à faire : déjà en short',
  'Nothing to do: already out': 'Rien à faire : déjà hors position',
  'No open position': 'Aucune position ouverte',
  'No open orders': 'Aucun ordre ouvert',
  'Position closed at market': 'Position fermée au marché',
  'Exit order sent; waiting for it to fill': 'Ordre de sortie envoyé ; en attente d’exécution',
  'User not found': 'Utilisateur introuvable',
  'Invoice not found': 'Facture introuvable',
  'Set a plan percent to create the plan': 'Indiquez un pourcentage pour créer la formule',
  'Plan percent must be between 0 and 100': 'Le pourcentage de la formule doit être compris entre 0 et 100',
  'A reason is required to void an invoice': 'Un motif est requis pour annuler une facture',
  'This invoice is already paid': 'Cette facture est déjà payée',
  'A void invoice cannot be paid': 'Une facture annulée ne peut pas être payée',
  'A paid invoice cannot be voided': 'Une facture payée ne peut pas être annulée',
  'This invoice is already void': 'Cette facture est déjà annulée',
  'The invoice changed meanwhile; reload and try again':
    'La facture a changé entre-temps ; rechargez puis réessayez',
};

export default frFRMessages;
