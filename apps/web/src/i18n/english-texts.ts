import enUS from './locales/en-US';
import enUSAdmin from './locales/en-US.admin';
import enUSBilling from './locales/en-US.billing';
import enUSPortfolio from './locales/en-US.portfolio';
import enUSSettings from './locales/en-US.settings';
import enUSStrategies from './locales/en-US.strategies';
import enUSShowcase from './locales/en-US.showcase';
import enUSTradeList from './locales/en-US.trade-list';
import enUSTrading from './locales/en-US.trading';

/**
 * Every English text: the first load's and those that load with their screens (`loadLaterTexts`). What the
 * French catalogue answers key for key; for the tests (the app loads each part when it needs it).
 */
export const ENGLISH_TEXTS = {
  ...enUS,
  ...enUSAdmin,
  ...enUSPortfolio,
  ...enUSShowcase,
  ...enUSTradeList,
  ...enUSTrading,
  ...enUSStrategies,
  ...enUSSettings,
  ...enUSBilling,
};
