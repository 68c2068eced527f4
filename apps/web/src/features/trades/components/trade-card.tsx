import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import type { TradeRow } from '../api/get-trades';
import { SideText } from './trade-badges';

/** A labelled figure of a trade card. */
export interface CardFigure {
  label: string;
  value: ReactNode;
}

/**
 * A trade or a position on a phone (< 640 px, issue 21): its symbol and side with `corner` beside them (its
 * status, or its unrealised PnL), two labelled figures, then `footer`; the whole card opens the trade. One
 * card for the Trades list, a bot's trades and the dashboard's open positions.
 */
export function TradeCard({
  tradeId,
  symbol,
  side,
  corner,
  left,
  right,
  footer,
  raised = false,
}: {
  tradeId: string;
  symbol: string;
  side: TradeRow['side'];
  corner: ReactNode;
  left: CardFigure;
  right: CardFigure;
  footer: ReactNode;
  /** On a card already (the dashboard's panel): one surface up. */
  raised?: boolean;
}) {
  return (
    <Link
      to={paths.trade(tradeId)}
      className={cn(
        'flex flex-col gap-2 rounded-lg border border-line p-3 text-sm hover:border-line-strong',
        raised ? 'bg-surface-2' : 'bg-surface',
      )}
    >
      <span className="flex items-start justify-between gap-2">
        <span className="flex items-center gap-2">
          <span className="font-medium text-fg">{symbol}</span>
          <SideText side={side} />
        </span>
        {corner}
      </span>
      <span className="flex items-end justify-between gap-2">
        <span className="flex flex-col">
          <span className="text-xs text-muted">{left.label}</span>
          <span className="num text-fg">{left.value}</span>
        </span>
        <span className="flex flex-col items-end">
          <span className="text-xs text-muted">{right.label}</span>
          {right.value}
        </span>
      </span>
      <span className="flex items-center justify-between gap-2 text-xs text-muted">{footer}</span>
    </Link>
  );
}
