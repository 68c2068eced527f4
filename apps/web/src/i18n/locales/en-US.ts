import enUSApi from './en-US.api';
import enUSCommon from './en-US.common';
import enUSAuth from './en-US.auth';
import enUSDashboard from './en-US.dashboard';
import enUSTrading from './en-US.trading';
import enUSBots from './en-US.bots';
import enUSStrategies from './en-US.strategies';
import enUSTrades from './en-US.trades';
import enUSPortfolio from './en-US.portfolio';
import enUSAccounts from './en-US.accounts';
import enUSSettings from './en-US.settings';

/**
 * English (default and fallback), one file a feature; the admin screens' and the component showcase's texts load
 * apart (en-US.admin.ts, en-US.showcase.ts: loadLaterTexts).
 * Every key here must exist in fr-FR (checked by the compiler and a test).
 */
const enUS = {
  ...enUSApi,
  ...enUSCommon,
  ...enUSAuth,
  ...enUSDashboard,
  ...enUSTrading,
  ...enUSBots,
  ...enUSStrategies,
  ...enUSTrades,
  ...enUSPortfolio,
  ...enUSAccounts,
  ...enUSSettings,
};

export default enUS;
