import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { PublicHeader } from '../layout/public-header';

export function NotFoundRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      <PublicHeader />
      <main
        id="main"
        className="flex flex-1 flex-col items-center justify-center gap-3 px-6 py-16 text-center"
      >
        <p className="num font-mono text-5xl font-semibold text-subtle">404</p>
        <h1 className="text-xl font-semibold text-fg">{t('notFound.title')}</h1>
        <p className="max-w-md text-sm text-muted">
          {t('notFound.description')}{' '}
          <code className="rounded bg-surface-3 px-1.5 py-0.5 font-mono text-xs text-fg">
            {location.pathname}
          </code>
        </p>
        <Link to={paths.home} className={buttonClasses({ className: 'mt-3' })}>
          {t('notFound.goHome')}
        </Link>
      </main>
    </div>
  );
}

export { NotFoundRoute as Component };
