import enUSApi from './en-US.api';
import enUSCommon from './en-US.common';
import enUSAuth from './en-US.auth';
import enUSDashboard from './en-US.dashboard';
import enUSBots from './en-US.bots';
import enUSTrades from './en-US.trades';
import enUSAccounts from './en-US.accounts';

/**
 * English (default and fallback), one file a feature; the texts of the admin screens, the component showcase, the
 * Portfolio, the Trades, the Trading, the Bots (strategies) and the Settings screens load with them (en-US.admin.ts,
 * .showcase.ts, .portfolio.ts, .trade-list.ts, .trading.ts, .strategies.ts, .settings.ts: loadLaterTexts), out of
 * the first load.
 * Every key here must exist in fr-FR (checked by the compiler and a test).
 */
const enUS = {
  ...enUSApi,
  ...enUSCommon,
  ...enUSAuth,
  ...enUSDashboard,
  ...enUSBots,
  ...enUSTrades,
  ...enUSAccounts,
};

export default enUS;
