import type { ComponentType } from 'react';
import {
  BellIcon,
  BotIcon,
  ChartIcon,
  DashboardIcon,
  LinkIcon,
  ListIcon,
  MailIcon,
  ReceiptIcon,
  SettingsIcon,
  ShieldIcon,
  WalletIcon,
} from '../../components/ui/icons';
import { paths } from '../../config/paths';

export interface NavItem {
  to: string;
  /** i18n key of the label. */
  label: string;
  icon: ComponentType<{ size?: number }>;
}

export const mainNav: NavItem[] = [
  { to: paths.dashboard, label: 'nav.dashboard', icon: DashboardIcon },
  { to: paths.trading, label: 'nav.trading', icon: ChartIcon },
  { to: paths.trades, label: 'nav.trades', icon: ListIcon },
  { to: paths.bots, label: 'nav.bots', icon: BotIcon },
  { to: paths.portfolio, label: 'nav.portfolio', icon: WalletIcon },
  { to: paths.accounts, label: 'nav.accounts', icon: LinkIcon },
  { to: paths.settings, label: 'nav.settings', icon: SettingsIcon },
];

export const adminNav: NavItem[] = [
  { to: paths.adminAlerts, label: 'nav.adminAlerts', icon: BellIcon },
  { to: paths.adminBilling, label: 'nav.adminBilling', icon: ReceiptIcon },
  { to: paths.adminTradeControl, label: 'nav.adminTradeControl', icon: ShieldIcon },
  { to: paths.adminOutbox, label: 'nav.adminOutbox', icon: MailIcon },
  { to: paths.adminLimits, label: 'nav.adminLimits', icon: SettingsIcon },
  { to: paths.adminInvites, label: 'nav.adminInvites', icon: MailIcon },
  { to: paths.adminLedger, label: 'nav.adminLedger', icon: ReceiptIcon },
  { to: paths.adminAudit, label: 'nav.adminAudit', icon: ListIcon },
];
