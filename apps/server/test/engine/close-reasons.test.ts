// Issue 21: the server writes a trade's close reason only from the contract's CLOSE_REASONS, so the web (whose
// labels are typed over the same list) names every one. Checked by the type checker (`npm run typecheck`).
import type { CloseReason } from '@kairos/contract';
import { expect, expectTypeOf, it } from 'vitest';
import type { TradeLifecycle } from '../../src/engine/trade-lifecycle';
import type { TradesRepo, TradeDbRow } from '../../src/engine/trades-repo';
import type { TradeSupervisor } from '../../src/engine/trade-supervisor';
import type { createTradeControlService } from '../../src/modules/admin/trade-control-service';
import type { PositionCloser } from '../../src/modules/bots/bots-service';

it("takes a trade's close reason only from the contract's list", () => {
  expectTypeOf<TradeDbRow['closeReason']>().toEqualTypeOf<CloseReason | null>();
  expectTypeOf<Parameters<TradesRepo['updateTrade']>[1]['closeReason']>().toEqualTypeOf<
    CloseReason | null | undefined
  >();
  expectTypeOf<Parameters<TradeLifecycle['close']>[3]>().toEqualTypeOf<CloseReason>();
  expectTypeOf<Parameters<TradeLifecycle['closeState']>[3]>().toEqualTypeOf<CloseReason>();
  expectTypeOf<Parameters<TradeSupervisor['closeTrade']>[2]>().toEqualTypeOf<CloseReason>();
  expectTypeOf<Parameters<TradeSupervisor['closeBotTrade']>[1]>().toEqualTypeOf<CloseReason>();
  expectTypeOf<Parameters<PositionCloser>[1]>().toEqualTypeOf<CloseReason>();
  type TradeControlDeps = Parameters<typeof createTradeControlService>[0];
  expectTypeOf<Parameters<TradeControlDeps['closeBotPosition']>[1]>().toEqualTypeOf<CloseReason>();

  // A reason outside the list does not build.
  // @ts-expect-error 'closed by magic' is not a CloseReason
  const stray: Pick<TradeDbRow, 'closeReason'> = { closeReason: 'closed by magic' };
  expect(stray.closeReason).toBe('closed by magic');
});
