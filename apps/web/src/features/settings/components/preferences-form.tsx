import { useTranslation } from 'react-i18next';
import { Select } from '../../../components/ui/select';
import { changeLanguage } from '../../../i18n';
import { isLanguage, usePreferences } from '../../../lib/preferences-store';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY'];

/** Language, theme and display currency: kept in this browser, applied at once. */
export function PreferencesForm() {
  const { t } = useTranslation();
  const { theme, language, currency, setTheme, setCurrency } = usePreferences();
  return (
    <div className="grid max-w-xl gap-4 sm:grid-cols-2">
      <Select
        label={t('language.label')}
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
        options={[
          { value: 'en-US', label: 'English' },
          { value: 'fr-FR', label: 'Français' },
        ]}
      />
      <Select
        label={t('theme.label')}
        value={theme}
        onChange={(event) => setTheme(event.target.value === 'light' ? 'light' : 'dark')}
        options={[
          { value: 'dark', label: t('theme.dark') },
          { value: 'light', label: t('theme.light') },
        ]}
      />
      <Select
        label={t('settings.currency')}
        hint={t('settings.currencyHint')}
        value={currency ?? ''}
        onChange={(event) => setCurrency(event.target.value || null)}
        options={[
          { value: '', label: t('settings.currencyAuto') },
          ...CURRENCIES.map((code) => ({ value: code, label: code })),
        ]}
      />
    </div>
  );
}
