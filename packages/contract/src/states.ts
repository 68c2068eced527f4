/**
 * The lifecycles' state lists are core's, where their transitions live; the contract hands them to its
 * clients with its schemas, so no client writes one out again.
 */
export { ALERT_STATUSES, LIVE_ORDER_STATES, ORDER_STATES, TRADE_STATUSES } from '@kairos/core';
export type { AlertStatus, OrderState, TradeStatus } from '@kairos/core';
