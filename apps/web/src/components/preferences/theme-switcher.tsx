import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { usePreferences } from '../../lib/preferences-store';
import { MoonIcon, SunIcon } from '../ui/icons';

/** One button that flips dark and light; says where it goes, not where it is. */
export function ThemeSwitcher({ showLabel = false, className }: { showLabel?: boolean; className?: string }) {
  const { t } = useTranslation();
  const theme = usePreferences((state) => state.theme);
  const setTheme = usePreferences((state) => state.setTheme);
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = next === 'light' ? t('theme.switchToLight') : t('theme.switchToDark');
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      aria-label={label}
      title={label}
      data-testid="theme-switcher"
      className={cn(
        'inline-flex h-8 items-center gap-2 rounded-md px-2 text-sm text-muted transition-colors hover:bg-surface-3 hover:text-fg',
        className,
      )}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
      {showLabel ? (
        <span aria-hidden="true">{next === 'light' ? t('theme.light') : t('theme.dark')}</span>
      ) : null}
    </button>
  );
}
