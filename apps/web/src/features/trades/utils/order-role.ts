import { TAKE_PROFIT_ROLE, type OrderRole } from '@kairos/contract';
import type { TFunction } from 'i18next';
import { takeProfitName } from './trade-figures';

/** Each role the contract declares (`ORDER_ROLES`), by its label's key: a new role fails the build until named. */
const ROLE_LABELS: Record<OrderRole, `trades.roles.${string}`> = {
  entry: 'trades.roles.entry',
  exit: 'trades.roles.exit',
  stop: 'trades.roles.stop',
  'venue-close': 'trades.roles.venueClose',
  liquidation: 'trades.roles.liquidation',
};

/** 'entry', 'tp1', 'stop', 'venue-close' as the user reads them; a role this build does not know, as sent. */
export function orderRoleLabel(t: TFunction, role: string): string {
  if (TAKE_PROFIT_ROLE.test(role.toLowerCase())) return takeProfitName(role);
  const key = Object.hasOwn(ROLE_LABELS, role) ? ROLE_LABELS[role as OrderRole] : undefined;
  return key ? t(key) : role;
}
