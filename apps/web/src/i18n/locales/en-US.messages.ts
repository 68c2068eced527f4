/**
 * Messages keyed by their English text: validation (spec §5, shared with the server through
 * @kairos/contract) and the error catalogue (spec §8). Unknown messages are shown as sent.
 */
const enUSMessages = {
  'This field is required': 'This field is required',
  'Please enter a valid email address': 'Please enter a valid email address',
  'Password must be at least 8 characters': 'Password must be at least 8 characters',
  'Password must be at most 128 characters': 'Password must be at most 128 characters',
  'Passwords must match': 'Passwords must match',
  'Please enter a valid amount': 'Please enter a valid amount',
  'Please enter a valid price': 'Please enter a valid price',
  'Please enter the 6-digit code': 'Please enter the 6-digit code',
  Unauthorized: 'Unauthorized',
  'HTTP error! status: {{status}}': 'HTTP error! status: {{status}}',
  'Request failed': 'Request failed',
  'Failed to fetch': 'Could not reach the server. Check your connection and try again.',
  'Login failed': 'Login failed',
  'Login failed: malformed response': 'Login failed: malformed response',
  '2FA code required': '2FA code required',
  'Invalid response from server': 'Invalid response from server',
  'Registration failed': 'Registration failed',
  'Missing user email': 'Missing user email',
  'Failed to enable 2FA': 'Failed to enable 2FA',
  '2FA verification failed': '2FA verification failed',
  'Failed to disable 2FA': 'Failed to disable 2FA',
  'Failed to send reset email': 'Failed to send reset email',
  'Failed to change password': 'Failed to change password',
  'Failed to load bots': 'Failed to load bots',
  'No refresh token available': 'No refresh token available',
  'Failed to push take profit to market': 'Failed to push take profit to market',
  'Network error occurred': 'Network error occurred',
  'Invalid email or password': 'Invalid email or password',
  'Invalid 2FA code': 'Invalid 2FA code',
  'Too many failed attempts. Try again later.': 'Too many failed attempts. Try again later.',
  'Too many requests': 'Too many requests',
  'An account with this email already exists': 'An account with this email already exists',
  'This password is too common. Please choose another one.':
    'This password is too common. Please choose another one.',
  'This account is suspended. Contact your administrator.':
    'This account is suspended. Contact your administrator.',
  'This reset link is invalid or has expired': 'This reset link is invalid or has expired',
  'Current password is incorrect': 'Current password is incorrect',
  'Session expired or revoked. Please log in again.': 'Session expired or revoked. Please log in again.',
  'Authentication required': 'Authentication required',
  '2FA is already enabled': '2FA is already enabled',
  '2FA is not enabled': '2FA is not enabled',
  'Start 2FA setup first': 'Start 2FA setup first',
  'A reset token or your current password is required': 'A reset token or your current password is required',
  'Sign in, or use the link from the reset mail': 'Sign in, or use the link from the reset mail',
  'You can only change your own account': 'You can only change your own account',
  'Unknown time zone': 'Unknown time zone',
  'Internal server error': 'Internal server error',
  // Trading accounts, strategies and bots (server messages a user can meet on those screens).
  'Bot not found': 'Bot not found',
  'Strategy not found': 'Strategy not found',
  'Trading account not found': 'Trading account not found',
  'Unknown exchange': 'Unknown exchange',
  'Leverage above 100% needs a futures account': 'Leverage above 100% needs a futures account',
  'Set a fixed amount or a portfolio percentage': 'Set a fixed amount or a portfolio percentage',
  'This strategy is retired': 'This strategy is retired',
  'This strategy key is already taken': 'This strategy key is already taken',
  'Only the owner can change this strategy': 'Only the owner can change this strategy',
  'Rotate the API key and secret together': 'Rotate the API key and secret together',
  'Close the open trade before moving this bot to another account or strategy':
    'Close the open trade before moving this bot to another account or strategy',
  'This bot has an open trade: stop it with "close position" first':
    'This bot has an open trade: stop it with "close position" first',
  'This API key can withdraw funds. Create a key with trading permission only, without withdrawals.':
    'This API key can withdraw funds. Create a key with trading permission only, without withdrawals.',
};

export default enUSMessages;
