// Issue 21: why a trade ended is one of the contract's CLOSE_REASONS, the strings the server writes in
// `trades.close_reason` — kept exactly as rows already hold them (the server's writes are typed over the list).
import { describe, expect, it } from 'vitest';
import { CLOSE_REASONS, type CloseReason } from './trades';

describe('close reasons', () => {
  it('are the strings the server has always written, word for word', () => {
    expect([...CLOSE_REASONS].sort()).toEqual(
      [
        // A take-profit ladder's fills ended it, or exits nobody named ('closed').
        'take profit',
        'closed',
        // The stop-loss (watched by the server, or resting on the venue).
        'stop loss',
        // The user's "complete", a bot's stop, trade control.
        'manual close',
        'bot stopped',
        'admin close',
        // An alert: `signal ${action}`, for each action an alert is stored with (buy/sell/close are aliases).
        'signal long',
        'signal short',
        'signal exit',
        // The position check: the venue closed the position outside Kairos.
        'closed on venue',
        'liquidation',
      ].sort(),
    );
  });

  it('take a signal reason built from a stored alert action', () => {
    const action = 'exit' as 'long' | 'short' | 'exit';
    const reason: CloseReason = `signal ${action}`;
    expect(CLOSE_REASONS).toContain(reason);
  });
});
