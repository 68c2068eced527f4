import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language, usePreferences } from '../lib/preferences-store';
import enUS from './locales/en-US';
import type enUSAdmin from './locales/en-US.admin';
import type enUSBilling from './locales/en-US.billing';
import enUSMessages from './locales/en-US.messages';
import type enUSPortfolio from './locales/en-US.portfolio';
import type enUSSettings from './locales/en-US.settings';
import type enUSShowcase from './locales/en-US.showcase';
import type enUSTradeList from './locales/en-US.trade-list';
import type enUSTrading from './locales/en-US.trading';
import type enUSStrategies from './locales/en-US.strategies';

/**
 * Every text key: the first load's, the admin screens' (loaded with the first of them), the component
 * showcase's, the Portfolio's and the Trades screen's (each loaded with its screen).
 */
export type TranslationResources = typeof enUS &
  typeof enUSAdmin &
  typeof enUSPortfolio &
  typeof enUSShowcase &
  typeof enUSTradeList &
  typeof enUSTrading &
  typeof enUSStrategies &
  typeof enUSBilling &
  typeof enUSSettings;
export type MessageResources = typeof enUSMessages;

// English ships with the first load (it is also the fallback); other languages load on demand.
const loaders: Record<
  Exclude<Language, 'en-US'>,
  () => Promise<{ translation: TranslationResources; messages: MessageResources }>
> = {
  'fr-FR': () => import('./locales/fr-FR').then((module) => module.default),
};

let initialised: Promise<unknown> | undefined;

export function initI18n(): Promise<unknown> {
  initialised ??= i18n.use(initReactI18next).init({
    resources: { 'en-US': { translation: enUS, messages: enUSMessages } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['en-US', 'fr-FR'],
    ns: ['translation', 'messages'],
    defaultNS: 'translation',
    // Message keys are English sentences and may contain ':' (e.g. 'Login failed: malformed response').
    nsSeparator: false,
    // The default, said: a key separator of the app's own spares i18next guessing, on every t(), whether a key
    // is a sentence (it only matters with a namespace separator, which there is none of).
    keySeparator: '.',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return initialised;
}

/** English texts kept out of the first load, added when a screen that says them loads. */
const laterTexts = {
  admin: () => import('./locales/en-US.admin'),
  showcase: () => import('./locales/en-US.showcase'),
  portfolio: () => import('./locales/en-US.portfolio'),
  tradeList: () => import('./locales/en-US.trade-list'),
  trading: () => import('./locales/en-US.trading'),
  strategies: () => import('./locales/en-US.strategies'),
  billing: () => import('./locales/en-US.billing'),
  settings: () => import('./locales/en-US.settings'),
};
const laterTextsLoaded = new Map<keyof typeof laterTexts, Promise<void>>();

/** Adds these English texts (the fallback of every language); once. */
export function loadLaterTexts(name: keyof typeof laterTexts): Promise<void> {
  let loaded = laterTextsLoaded.get(name);
  if (!loaded) {
    loaded = Promise.all([initI18n(), laterTexts[name]()]).then(
      ([, module]) => {
        i18n.addResourceBundle('en-US', 'translation', module.default, true, false);
      },
      (error: unknown) => {
        laterTextsLoaded.delete(name); // a chunk that failed (the server unreachable) is fetched again next time
        throw error;
      },
    );
    laterTextsLoaded.set(name, loaded);
  }
  return loaded;
}

/** Adds the admin screens' English texts; once. */
export const loadAdminTexts = () => loadLaterTexts('admin');

/** Loads the language's texts if needed, then switches the whole app to it. */
export async function changeLanguage(language: Language): Promise<void> {
  await initI18n();
  if (language !== 'en-US' && !i18n.hasResourceBundle(language, 'translation')) {
    const bundles = await loaders[language]();
    i18n.addResourceBundle(language, 'translation', bundles.translation, true, true);
    i18n.addResourceBundle(language, 'messages', bundles.messages, true, true);
  }
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  usePreferences.getState().setLanguage(language);
}

export { i18n };
