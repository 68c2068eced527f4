import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Link,
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useNavigation,
  useRouteError,
} from 'react-router';
import { Button, buttonClasses } from '../components/ui/button';
import { ConfirmDialogHost } from '../components/ui/confirm-dialog';
import { AlertIcon } from '../components/ui/icons';
import { Spinner } from '../components/ui/spinner';
import { Toaster } from '../components/ui/toast';
import { paths } from '../config/paths';
import { errorMessage } from '../i18n/translate-message';
import { NewVersionError, isChunkLoadError, useServerUnreachable } from '../lib/chunk-recovery';

/** A thin bar while the next screen's chunk or guard is on its way. */
function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      role="progressbar"
      aria-label={t('common.loading')}
      className="fixed inset-x-0 top-0 z-[70] h-0.5 overflow-hidden bg-accent/20"
    >
      <div className="h-full w-1/3 animate-[k-progress_1s_ease-in-out_infinite] bg-accent" />
    </div>
  );
}

/** While a screen's code waits for the server to answer again (lib/chunk-recovery.ts). */
function ServerUnreachable() {
  const { t } = useTranslation();
  if (!useServerUnreachable()) return null;
  return (
    <p
      role="status"
      className="fixed inset-x-0 top-1 z-[70] mx-auto w-fit rounded-md border border-warn/40 bg-surface px-3 py-1.5 text-sm text-fg shadow"
    >
      {t('common.serverUnreachable')}
    </p>
  );
}

export function RootLayout() {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.documentElement.lang = i18n.resolvedLanguage ?? 'en-US';
  }, [i18n.resolvedLanguage]);
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[80] rounded bg-accent px-3 py-2 text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('common.skipToContent')}
      </a>
      <NavigationProgress />
      <ServerUnreachable />
      <Outlet />
      <Toaster />
      <ConfirmDialogHost />
      <ScrollRestoration />
    </>
  );
}

export function HydrateFallback() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh items-center justify-center text-muted">
      <Spinner size={20} label={t('common.loading')} />
    </div>
  );
}

/**
 * Errors thrown while loading or rendering a screen: a chunk of a build the server no longer serves says a new
 * version is out; a chunk that failed while the server answers with this build asks for a reload.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center gap-3 px-6 text-center">
      <span className="rounded-full border border-loss/30 bg-loss/10 p-3 text-loss">
        <AlertIcon size={22} />
      </span>
      <h1 className="text-lg font-semibold text-fg">
        {notFound ? t('notFound.title') : t('common.errorTitle')}
      </h1>
      <p className="max-w-md text-sm text-muted">
        {error instanceof NewVersionError
          ? t('common.newVersion')
          : isChunkLoadError(error)
            ? t('common.screenLoadFailed')
            : notFound
              ? t('notFound.description')
              : errorMessage(t, error)}
      </p>
      <div className="mt-2 flex gap-2">
        <Button variant="secondary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
        <Link to={paths.home} className={buttonClasses()}>
          {t('notFound.goHome')}
        </Link>
      </div>
    </main>
  );
}
