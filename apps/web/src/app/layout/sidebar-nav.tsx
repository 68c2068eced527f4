import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';
import { isAdmin, useSession } from '../../lib/session-store';
import { type NavItem, adminNav, mainNav } from './nav-items';

function NavGroup({
  title,
  items,
  onNavigate,
}: {
  title?: string;
  items: NavItem[];
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-0.5">
      {title ? (
        <p className="px-3 pt-4 pb-1.5 text-[11px] font-medium tracking-wider text-subtle uppercase">
          {title}
        </p>
      ) : null}
      {items.map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              'flex h-9 items-center gap-3 rounded-md px-3 text-sm transition-colors',
              isActive ? 'bg-accent/12 font-medium text-fg' : 'text-muted hover:bg-surface-3 hover:text-fg',
            )
          }
        >
          {({ isActive }) => (
            <>
              <span className={isActive ? 'text-accent' : undefined}>
                <Icon size={16} />
              </span>
              {t(label)}
            </>
          )}
        </NavLink>
      ))}
    </div>
  );
}

/** The app's navigation; the admin group exists only for admins. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const admin = useSession((state) => isAdmin(state.user));
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col px-2">
      <NavGroup items={mainNav} onNavigate={onNavigate} />
      {admin ? <NavGroup title={t('nav.admin')} items={adminNav} onNavigate={onNavigate} /> : null}
    </nav>
  );
}
