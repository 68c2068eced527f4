import { useTranslation } from 'react-i18next';
import { Card, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { cn } from '../../../lib/cn';
import { type MarketPrecision, useMoney } from '../../../lib/money';
import { useOrderBook } from '../api/get-order-book';
import { type DepthLevel, depthLevels } from '../utils/market-figures';

const ROWS = 12;

const barColor = {
  bid: 'color-mix(in srgb, var(--k-gain) 14%, transparent)',
  ask: 'color-mix(in srgb, var(--k-loss) 14%, transparent)',
};

export interface OrderBookProps {
  symbol: string;
  accountId?: string;
  /** The last trade price, shown between the asks and the bids. */
  lastPrice?: string | null;
  /** A click on a level hands its price over (the trade form's limit price). */
  onPickPrice?: (price: string) => void;
  /** The market's tick and step: prices and amounts to their decimals (none known: six significant digits). */
  precision?: MarketPrecision;
}

/** Spec §2 Trading: bids and asks, best in the middle, with cumulative depth bars. */
export function OrderBook({ symbol, accountId, lastPrice, onPickPrice, precision }: OrderBookProps) {
  const { t } = useTranslation();
  const money = useMoney();
  const book = useOrderBook(symbol, accountId);
  const [base = '', quote = ''] = symbol.split('/');

  let body;
  if (book.isPending) {
    body = (
      <div className="flex flex-col gap-1 p-3" role="status" aria-label={t('common.loading')}>
        {Array.from({ length: 14 }, (_, index) => (
          <Skeleton key={index} className="h-4" />
        ))}
      </div>
    );
  } else if (book.isError) {
    body = <ErrorState error={book.error} onRetry={() => void book.refetch()} className="py-6" />;
  } else if (book.data.bids.length === 0 && book.data.asks.length === 0) {
    body = <EmptyState title={t('trading.orderBook.empty')} className="py-6" />;
  } else {
    const { bids, asks } = depthLevels(book.data.bids, book.data.asks, ROWS);
    const bestBid = book.data.bids[0]?.[0];
    const bestAsk = book.data.asks[0]?.[0];
    // Display only: the gap between the two best prices.
    const spread = bestBid && bestAsk ? Number(bestAsk) - Number(bestBid) : null;
    body = (
      <div className="text-xs">
        <div className="grid grid-cols-3 gap-2 border-b border-line px-3 py-1.5 text-[11px] text-subtle">
          <span>{t('trading.orderBook.price', { quote })}</span>
          <span className="text-right">{t('trading.orderBook.amount', { base })}</span>
          <span className="text-right">{t('trading.orderBook.total', { base })}</span>
        </div>
        <Side
          caption={t('trading.orderBook.asks')}
          levels={[...asks].reverse()}
          tone="ask"
          onPickPrice={onPickPrice}
          quote={quote}
          precision={precision}
        />
        <div className="flex items-center justify-between gap-2 border-y border-line bg-surface-2 px-3 py-1.5">
          <span className="num text-sm font-semibold text-fg">
            {lastPrice ? money.price(lastPrice, quote, precision?.priceTick, false) : '—'}
          </span>
          <span className="num text-[11px] text-subtle">
            {spread !== null
              ? // In the quote, to the market's tick (issue 21: "Spread 10.70" said no unit).
                t('trading.orderBook.spread', {
                  spread: money.price(spread.toFixed(10), quote, precision?.priceTick),
                })
              : null}
          </span>
        </div>
        <Side
          caption={t('trading.orderBook.bids')}
          levels={bids}
          tone="bid"
          onPickPrice={onPickPrice}
          quote={quote}
          precision={precision}
        />
      </div>
    );
  }

  return (
    <Card>
      <CardHeader
        title={t('trading.orderBook.title')}
        description={onPickPrice ? t('trading.orderBook.hint') : undefined}
      />
      {body}
    </Card>
  );
}

function Side({
  caption,
  levels,
  tone,
  onPickPrice,
  quote,
  precision,
}: {
  caption: string;
  levels: DepthLevel[];
  tone: 'bid' | 'ask';
  onPickPrice?: (price: string) => void;
  quote: string;
  precision?: MarketPrecision;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  // The column headers say the units.
  const price = (value: string) => money.price(value, quote, precision?.priceTick, false);
  const amount = (value: string | number) => money.quantity(value, undefined, precision?.amountStep);
  return (
    <table className="w-full border-collapse">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {levels.map((level) => (
          <tr
            key={level.price}
            className={cn(onPickPrice && 'cursor-pointer hover:brightness-125')}
            // The depth bar fills the row from the right: the level's share of the deepest total.
            style={{
              background: `linear-gradient(to left, ${barColor[tone]} ${(level.depth * 100).toFixed(2)}%, transparent ${(level.depth * 100).toFixed(2)}%)`,
            }}
            onClick={onPickPrice ? () => onPickPrice(level.price) : undefined}
          >
            <td className="px-3 py-[3px]">
              {onPickPrice ? (
                <button
                  type="button"
                  onClick={(event) => {
                    event.stopPropagation();
                    onPickPrice(level.price);
                  }}
                  aria-label={t('trading.orderBook.pick', { price: price(level.price) })}
                  className={cn('num', tone === 'bid' ? 'text-gain' : 'text-loss')}
                >
                  {price(level.price)}
                </button>
              ) : (
                <span className={cn('num', tone === 'bid' ? 'text-gain' : 'text-loss')}>
                  {price(level.price)}
                </span>
              )}
            </td>
            <td className="num px-3 py-[3px] text-right text-fg">{amount(level.amount)}</td>
            <td className="num px-3 py-[3px] text-right text-muted">{amount(level.total.toFixed(8))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
