import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';

/** Trades | Orders: the two views of the Trades screen, each its own address (issue 21). */
export function TradesViews() {
  const { t } = useTranslation();
  const views = [
    { to: paths.trades, label: t('tradeList.views.trades') },
    { to: paths.orders, label: t('tradeList.views.orders') },
  ];
  return (
    <nav aria-label={t('tradeList.views.label')} className="mb-4 flex gap-1 border-b border-line">
      {views.map((view) => (
        <NavLink
          key={view.to}
          to={view.to}
          end
          className={({ isActive }) =>
            cn(
              '-mb-px border-b-2 px-3 py-2 text-sm whitespace-nowrap transition-colors',
              isActive ? 'border-accent font-medium text-fg' : 'border-transparent text-muted hover:text-fg',
            )
          }
        >
          {view.label}
        </NavLink>
      ))}
    </nav>
  );
}
