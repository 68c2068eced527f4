import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { cn } from '../../lib/cn';
import { SUPPORTED_LANGUAGES, isLanguage, usePreferences } from '../../lib/preferences-store';
import { GlobeIcon } from '../ui/icons';

/** Native names so a user lost in the wrong language still finds theirs. */
const LANGUAGE_NAMES: Record<(typeof SUPPORTED_LANGUAGES)[number], string> = {
  'en-US': 'English',
  'fr-FR': 'Français',
};

/**
 * `compact`: below 640 px only the globe shows (the list still names each language in its own words), so a
 * header fits a 360 px phone.
 */
export function LanguageSwitcher({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const language = usePreferences((state) => state.language);
  return (
    <div
      className={cn(
        'relative inline-flex h-8 items-center rounded-md text-muted hover:bg-surface-3 hover:text-fg',
        className,
      )}
    >
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <GlobeIcon className="pointer-events-none absolute left-2" />
      <select
        id={id}
        value={language}
        data-testid="language-switcher"
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
        className={cn(
          'h-8 cursor-pointer appearance-none rounded-md bg-transparent pr-2 pl-8 text-sm text-inherit focus:outline-none',
          compact && 'w-8 pr-0 text-transparent sm:w-auto sm:pr-2 sm:text-inherit',
        )}
      >
        {SUPPORTED_LANGUAGES.map((code) => (
          <option key={code} value={code} className="bg-surface text-fg">
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
