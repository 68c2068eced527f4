import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { LiveStatusIndicator } from '../../components/live/live-status';
import { LanguageSwitcher } from '../../components/preferences/language-switcher';
import { ThemeSwitcher } from '../../components/preferences/theme-switcher';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { Logo } from '../../components/ui/logo';
import { paths } from '../../config/paths';
import { useLiveEvents } from '../../lib/use-live-events';
import { SidebarNav } from './sidebar-nav';
import { UserMenu } from './user-menu';

/** Below 1024 px (spec §9: breakpoint 1023 px) the sidebar becomes a drawer. */
function MobileDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, onClose]);
  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-50 lg:hidden">
      <div className="absolute inset-0 bg-overlay" aria-hidden="true" onClick={onClose} />
      <div
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.label')}
        data-testid="mobile-drawer"
        className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col border-r border-line bg-surface shadow-2xl"
      >
        <div className="flex h-14 items-center justify-between border-b border-line px-4">
          <Logo />
          <button
            type="button"
            onClick={onClose}
            aria-label={t('nav.closeMenu')}
            autoFocus
            className="rounded p-1.5 text-muted hover:bg-surface-3 hover:text-fg"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="flex-1 overflow-y-auto py-3">
          <SidebarNav onNavigate={onClose} />
        </div>
        <div className="flex items-center gap-1 border-t border-line px-3 py-3">
          <LanguageSwitcher />
          <ThemeSwitcher showLabel />
        </div>
      </div>
    </div>,
    document.body,
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // One live-updates stream for the signed-in session (closed on logout).
  useLiveEvents();
  const [drawerPath, setDrawerPath] = useState(location.pathname);
  // Closing on navigation: derived from the location, no effect needed.
  if (drawerPath !== location.pathname) {
    setDrawerPath(location.pathname);
    setDrawerOpen(false);
  }

  return (
    <div className="min-h-dvh bg-bg lg:pl-60">
      <aside
        data-testid="sidebar"
        className="fixed inset-y-0 left-0 z-30 hidden w-60 flex-col border-r border-line bg-surface lg:flex"
      >
        <div className="flex h-14 items-center border-b border-line px-4">
          <Link
            to={paths.dashboard}
            aria-label={`Kairos, ${t('nav.dashboard')}`}
            className="flex items-center"
          >
            <Logo />
          </Link>
        </div>
        <div className="flex-1 overflow-y-auto py-3">
          <SidebarNav />
        </div>
      </aside>

      <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-line bg-bg/90 px-3 backdrop-blur sm:px-4 lg:px-6">
        <button
          type="button"
          data-testid="mobile-nav-toggle"
          onClick={() => setDrawerOpen(true)}
          aria-label={t('nav.openMenu')}
          aria-expanded={drawerOpen}
          className="rounded p-1.5 text-muted hover:bg-surface-3 hover:text-fg lg:hidden"
        >
          <MenuIcon size={20} />
        </button>
        <Link
          to={paths.dashboard}
          className="flex items-center lg:hidden"
          aria-label={`Kairos, ${t('nav.dashboard')}`}
        >
          <Logo />
        </Link>
        <div className="flex-1" />
        <LiveStatusIndicator />
        {/* Below 640 px the language and theme live in the menu's drawer: the header fits a 360 px phone. */}
        <div className="hidden items-center gap-2 sm:flex">
          <LanguageSwitcher />
          <ThemeSwitcher />
        </div>
        <UserMenu />
      </header>

      <MobileDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />

      <main id="main" className="mx-auto w-full max-w-[1600px] px-3 py-5 sm:px-4 lg:px-6 lg:py-6">
        <Outlet />
      </main>
    </div>
  );
}

export { AppLayout as Component };
