import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitcher } from '../../components/preferences/language-switcher';
import { ThemeSwitcher } from '../../components/preferences/theme-switcher';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session-store';

/** The top bar of the public pages: home link, preferences, and the way in. */
export function PublicHeader({ showAuthLinks = true }: { showAuthLinks?: boolean }) {
  const { t } = useTranslation();
  const isAuthenticated = useSession((state) => state.isAuthenticated);
  return (
    <header className="border-b border-line bg-bg/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-1 px-3 sm:gap-2 sm:px-6">
        <Link to={paths.home} aria-label={t('nav.home')} className="flex items-center">
          <Logo />
        </Link>
        <div className="flex-1" />
        <LanguageSwitcher compact />
        <ThemeSwitcher />
        {showAuthLinks ? (
          isAuthenticated ? (
            <Link to={paths.dashboard} className={buttonClasses({ size: 'sm', className: 'ml-1' })}>
              {t('nav.openApp')}
            </Link>
          ) : (
            <>
              <Link
                to={paths.login}
                className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'ml-1' })}
              >
                {t('home.login')}
              </Link>
              {/* Below 640 px the way in is "Log in" (the home page's own buttons offer both): a 360 px phone fits. */}
              <Link to={paths.register} className={buttonClasses({ size: 'sm', className: 'max-sm:hidden' })}>
                {t('home.register')}
              </Link>
            </>
          )
        ) : null}
      </div>
    </header>
  );
}
