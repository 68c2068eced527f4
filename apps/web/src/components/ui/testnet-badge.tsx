import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from './status-badge';

/**
 * "Testnet", beside an account's name wherever its figures show: a testnet or demo-trading account's
 * balances and profits are not real money, and must never read as such.
 */
export function TestnetBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <Badge tone="warning" glyph="⚑" title={t('common.testnetHint')} className={className}>
      {t('common.testnet')}
    </Badge>
  );
}

/** The badge with a sentence, above figures that are (or include) a testnet account's. */
export function TestnetNote({ children }: { children: ReactNode }) {
  return (
    <p
      className="flex flex-wrap items-center gap-2 rounded-md border border-warn/30 bg-warn/5 px-3 py-2 text-xs text-fg"
      data-testid="testnet-note"
    >
      <TestnetBadge />
      <span>{children}</span>
    </p>
  );
}
