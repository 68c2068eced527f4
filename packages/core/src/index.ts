// @kairos/core: pure domain logic, no I/O. Money is Decimal end to end.
export * from './errors';
export * from './money';
export * from './market';
export * from './symbol';
export * from './order-state';
export * from './trade-state';
export * from './alert-state';
export * from './signal-action';
export * from './sizing';
export * from './monthly-goal';
export * from './take-profit-ladder';
export * from './pnl';
export * from './unrealised-pnl';
export * from './billing';
export * from './sha256';
export * from './client-order-id';
export * from './ledger';
