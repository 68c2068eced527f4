import type { OrdersListQuery } from '@kairos/contract';
import type { AuthedUser } from '../auth/auth-service';
import { toUserOrder } from './orders-fns';
import type { OrdersRepo } from './orders-repo';

export type OrdersService = ReturnType<typeof createOrdersService>;

/**
 * The user's orders (issue 21): a pending order read as an order, not a position. Read only: a cancellable
 * one (an unfilled entry) is cancelled through its trade's existing complete (see `isCancellableEntry`).
 */
export function createOrdersService(deps: { repo: OrdersRepo }) {
  return {
    async list(user: AuthedUser, query: OrdersListQuery) {
      const { rows, total } = await deps.repo.listOwned(
        user.id,
        { liveOnly: query.scope === 'open', accountId: query.accountId },
        query.page,
        query.pageSize,
      );
      return { results: rows.map(toUserOrder), total, page: query.page, pageSize: query.pageSize };
    },
  };
}
