import type { TranslationResources } from '..';
import frFRApi from './fr-FR.api';
import frFRCommon from './fr-FR.common';
import frFRAuth from './fr-FR.auth';
import frFRDashboard from './fr-FR.dashboard';
import frFRTrading from './fr-FR.trading';
import frFRBots from './fr-FR.bots';
import frFRStrategies from './fr-FR.strategies';
import frFRTrades from './fr-FR.trades';
import frFRPortfolio from './fr-FR.portfolio';
import frFRAccounts from './fr-FR.accounts';
import frFRSettings from './fr-FR.settings';
import frFRShowcase from './fr-FR.showcase';
import frFRTradeList from './fr-FR.trade-list';
import frFRBilling from './fr-FR.billing';
import frFRAdmin from './fr-FR.admin';
import frFRMessages from './fr-FR.messages';

/**
 * French (loaded on demand), one file a feature: each is typed against its English file and the whole against
 * English too (TranslationResources), so a missing or extra key fails the build.
 */
const translation: TranslationResources = {
  ...frFRApi,
  ...frFRCommon,
  ...frFRAuth,
  ...frFRDashboard,
  ...frFRTrading,
  ...frFRBots,
  ...frFRStrategies,
  ...frFRTrades,
  ...frFRPortfolio,
  ...frFRAccounts,
  ...frFRSettings,
  ...frFRShowcase,
  ...frFRTradeList,
  ...frFRBilling,
  ...frFRAdmin,
};

export default { translation, messages: frFRMessages };
