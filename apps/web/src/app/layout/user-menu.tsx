import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ChevronDownIcon, LogoutIcon, ReceiptIcon, SettingsIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { paths } from '../../config/paths';
import { useLogout } from '../../features/auth/api/logout';
import { useSession } from '../../lib/session-store';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const logout = useLogout({
    onLoggedOut: () => {
      void navigate(paths.login, { replace: true });
      toast.info(t('userMenu.loggedOut'));
    },
  });

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const name = user?.displayName || user?.username || user?.email || t('userMenu.account');
  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`${name}, ${t('userMenu.label')}`}
        onClick={() => setOpen((value) => !value)}
        className="flex h-8 items-center gap-2 rounded-md pr-1.5 pl-1 text-sm text-muted hover:bg-surface-3 hover:text-fg"
      >
        {/* The initial is drawn by CSS: as text it would be read into the button's name (axe: label-content-name-mismatch). */}
        <span
          aria-hidden="true"
          data-initial={name.slice(0, 1)}
          className="flex h-6 w-6 items-center justify-center rounded-full bg-accent/15 text-xs font-semibold text-accent uppercase before:content-[attr(data-initial)]"
        />
        <span className="hidden max-w-32 truncate sm:inline">{name}</span>
        <ChevronDownIcon size={14} />
      </button>
      {open ? (
        <div
          id={menuId}
          role="menu"
          className="absolute right-0 z-40 mt-1.5 w-60 rounded-lg border border-line-strong bg-surface-2 p-1 shadow-xl"
        >
          <div className="border-b border-line px-3 py-2">
            <p className="truncate text-sm font-medium text-fg">{user?.email}</p>
            <p className="text-xs text-subtle">
              {user?.role === 'admin' ? t('userMenu.roleAdmin') : t('userMenu.roleUser')}
            </p>
          </div>
          <Link
            role="menuitem"
            to={paths.settings}
            onClick={() => setOpen(false)}
            className="mt-1 flex h-8 items-center gap-2 rounded px-3 text-sm text-muted hover:bg-surface-3 hover:text-fg"
          >
            <SettingsIcon size={14} />
            {t('nav.settings')}
          </Link>
          <Link
            role="menuitem"
            to={paths.billing}
            onClick={() => setOpen(false)}
            className="flex h-8 items-center gap-2 rounded px-3 text-sm text-muted hover:bg-surface-3 hover:text-fg"
          >
            <ReceiptIcon size={14} />
            {t('nav.billing')}
          </Link>
          <button
            role="menuitem"
            type="button"
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            className="flex h-8 w-full items-center gap-2 rounded px-3 text-sm text-muted hover:bg-surface-3 hover:text-fg"
          >
            {logout.isPending ? <Spinner size={14} /> : <LogoutIcon size={14} />}
            {t('userMenu.logout')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
