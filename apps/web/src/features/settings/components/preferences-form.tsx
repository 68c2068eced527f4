import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { CheckIcon } from '../../../components/ui/icons';
import { Select } from '../../../components/ui/select';
import { changeLanguage } from '../../../i18n';
import { cn } from '../../../lib/cn';
import { defaultCurrencyFor } from '../../../lib/format';
import { SUPPORTED_LANGUAGES, isLanguage, usePreferences } from '../../../lib/preferences-store';
import { useUserSettings } from '../api/get-user-settings';

/** The currencies the server stores (spec §1: USD for English, EUR for French). */
const CURRENCIES = ['USD', 'EUR'] as const;

const THEMES = ['dark', 'light'] as const;

const LANGUAGE_NAMES: Record<(typeof SUPPORTED_LANGUAGES)[number], string> = {
  'en-US': 'English',
  'fr-FR': 'Français',
};

function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return [...new Set(['UTC', current, ...zones])];
}

function currencyName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Settings › Preferences: language, currency, time zone and theme. Each applies at once in this
 * browser; the preference sync saves it to the account.
 */
export function PreferencesForm() {
  const { t, i18n } = useTranslation();
  const { theme, language, currency, timezone, setTheme, setCurrency, setTimezone } = usePreferences();
  const saved = useUserSettings();
  const locale = i18n.resolvedLanguage ?? language;
  const zone = timezone ?? saved.data?.timezone ?? 'UTC';
  const zones = useMemo(() => timeZones(zone), [zone]);

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader
          title={t('settings.preferences.regionTitle')}
          description={t('settings.preferences.regionDescription')}
        />
        <CardBody>
          <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
            <Select
              label={t('language.label')}
              value={language}
              onChange={(event) => {
                if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
              }}
              options={SUPPORTED_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            />
            <Select
              label={t('settings.currency')}
              hint={t('settings.currencyHint')}
              value={currency ?? ''}
              onChange={(event) => setCurrency(event.target.value || null)}
              options={[
                {
                  value: '',
                  label: `${t('settings.currencyAuto')} (${defaultCurrencyFor(language)})`,
                },
                ...CURRENCIES.map((code) => ({
                  value: code,
                  label: `${currencyName(locale, code)} (${code})`,
                })),
              ]}
            />
            <Select
              label={t('settings.preferences.timezone')}
              hint={t('settings.preferences.timezoneHint')}
              value={zone}
              onChange={(event) => setTimezone(event.target.value)}
              options={zones.map((name) => ({ value: name, label: name.replaceAll('_', ' ') }))}
            />
          </div>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title={t('settings.preferences.appearanceTitle')}
          description={t('settings.preferences.appearanceDescription')}
        />
        <CardBody>
          <div role="radiogroup" aria-label={t('theme.label')} className="flex flex-wrap gap-3">
            {THEMES.map((option) => (
              <label
                key={option}
                className={cn(
                  'relative flex cursor-pointer flex-col gap-2 rounded-lg border p-2 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
                  theme === option ? 'border-accent bg-accent/5' : 'border-line-strong hover:border-subtle',
                )}
              >
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={theme === option}
                  onChange={() => setTheme(option)}
                  // The whole card is the (transparent) radio: one click target, keyboard included.
                  className="absolute inset-0 z-10 cursor-pointer appearance-none rounded-lg opacity-0"
                />
                {/* A miniature of the app in that theme: the variables follow data-theme. */}
                <span
                  aria-hidden="true"
                  data-theme={option}
                  className="flex h-16 w-32 gap-1.5 rounded-md border border-line bg-bg p-1.5"
                >
                  <span className="w-6 rounded-sm bg-surface" />
                  <span className="flex flex-1 flex-col gap-1 rounded-sm bg-surface p-1.5">
                    <span className="h-1.5 w-10 rounded-full bg-fg/70" />
                    <span className="h-1.5 w-14 rounded-full bg-muted/50" />
                    <span className="mt-auto h-2.5 w-8 rounded-sm bg-accent" />
                  </span>
                </span>
                <span className="flex items-center gap-1.5 px-0.5 text-sm text-fg">
                  {theme === option ? <CheckIcon size={14} className="text-accent" /> : null}
                  {t(`theme.${option}`)}
                </span>
              </label>
            ))}
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
