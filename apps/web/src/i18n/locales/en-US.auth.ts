/** English texts of the home page and the log-in, register and reset forms. */
const enUSAuth = {
  home: {
    eyebrow: 'Self-hosted · paper trading works offline',
    title: 'Your TradingView signals, traded by bots you own.',
    subtitle:
      'Kairos turns TradingView alerts into orders on your exchange accounts. Create strategies, attach bots with their own sizing, leverage and take-profit ladder, and follow every trade from one dashboard.',
    register: 'Create an account',
    login: 'Log in',
    alertCaption: 'A TradingView alert, as Kairos receives it',
    flowSignal: 'Signal arrives',
    flowBots: 'Every bot on the strategy decides',
    flowOrders: 'Orders placed once, tracked to the fill',
    featuresTitle: 'What Kairos does',
    featureBotsTitle: 'Signal-driven bots',
    featureBots:
      'Each bot follows one strategy on one account: long, short or out, sized by a fixed amount or a share of the balance, with a monthly profit goal.',
    featureWebhooksTitle: 'TradingView webhooks',
    featureWebhooks:
      'Point an alert at your strategy’s webhook. Alerts are acknowledged in milliseconds, deduplicated, queued and retried; nothing is placed twice.',
    featurePaperTitle: 'Paper trading, offline',
    featurePaper:
      'A simulated exchange with balances, fees and an order book is ready on a fresh install. Try a strategy without keys and without the internet.',
    featureSelfHostedTitle: 'Self-hosted',
    featureSelfHosted:
      'One process and PostgreSQL on your own machine. Exchange keys are encrypted at rest and never leave your server.',
    footer: 'Kairos — open-source crypto trading automation.',
  },
  auth: {
    email: 'Email',
    password: 'Password',
    login: {
      title: 'Log in to Kairos',
      subtitle: 'Welcome back. Your bots kept working.',
      submit: 'Log in',
      submitting: 'Logging in…',
      verify: 'Verify and log in',
      code: '2FA code',
      codeHint: 'Enter the 6-digit code from your authenticator app.',
      startOver: 'Use a different account',
      useRecoveryCode: 'Use a recovery code',
      useAuthenticatorCode: 'Use the code from my authenticator app',
      recoveryCode: 'Recovery code',
      recoveryCodeHint:
        'Enter one of the ten recovery codes you saved when you turned 2FA on. Each works once.',
      noAccount: 'No account yet?',
      createOne: 'Create one',
      forgotPassword: 'Forgot your password?',
    },
    register: {
      title: 'Create your account',
      subtitle: 'Start with a paper account: no exchange keys needed.',
      invited: 'You were invited: create your account.',
      confirmPassword: 'Confirm password',
      passwordHint: 'At least 8 characters.',
      submit: 'Create account',
      submitting: 'Creating your account…',
      haveAccount: 'Already have an account?',
      login: 'Log in',
      created: 'Your account is ready. Log in to continue.',
      firstAdmin: 'First admin?',
      setupTokenHint:
        'Setting up Kairos? Register the admin email with the setup token the server printed in its log at start (or the one you set in KAIROS_ADMIN_SETUP_TOKEN).',
      setupToken: 'Setup token',
    },
    forgot: {
      title: 'Reset your password',
      subtitle: 'Enter the email of your account and we will send you a link to choose a new password.',
      submit: 'Send the reset link',
      submitting: 'Sending…',
      sentTitle: 'Check your inbox',
      sent: 'If an account exists for {{email}}, a reset link is on its way. It works for one hour.',
      sendAgain: 'Send it again',
      remembered: 'Remembered it?',
      backToLogin: 'Back to log in',
    },
    reset: {
      title: 'Choose a new password',
      subtitle: 'For the account {{email}}.',
      newPassword: 'New password',
      confirmPassword: 'Confirm the new password',
      submit: 'Set the new password',
      submitting: 'Saving…',
      done: 'Your password has been changed. Log in with the new one.',
      incompleteTitle: 'This reset link is incomplete',
      incomplete: 'Open the link from the mail again, or ask for a new one.',
      requestNew: 'Ask for a new link',
    },
  },
};

export default enUSAuth;
