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
};

export default frFRMessages;
