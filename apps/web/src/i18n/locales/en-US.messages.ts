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
};

export default enUSMessages;
