import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** Every status the app shows, with one tone and one glyph each: colour is never the only signal. */
export const STATUS_STYLES = {
  queued: { tone: 'neutral', glyph: '◷' },
  in_progress: { tone: 'info', glyph: '↻' },
  succeeded: { tone: 'success', glyph: '✓' },
  failed: { tone: 'warning', glyph: '!' },
  dead: { tone: 'danger', glyph: '✕' },
  open: { tone: 'info', glyph: '●' },
  closed: { tone: 'neutral', glyph: '○' },
  placed: { tone: 'info', glyph: '◷' },
  filled: { tone: 'success', glyph: '✓' },
  cancelled: { tone: 'neutral', glyph: '⊘' },
  waiting: { tone: 'warning', glyph: '…' },
} as const satisfies Record<string, { tone: Tone; glyph: string }>;

export type Status = keyof typeof STATUS_STYLES;

export const STATUSES = Object.keys(STATUS_STYLES) as Status[];

const toneClasses: Record<Tone, string> = {
  neutral: 'border-line-strong bg-surface-3 text-muted',
  info: 'border-info/35 bg-info/12 text-info',
  success: 'border-gain/35 bg-gain/12 text-gain',
  warning: 'border-warn/35 bg-warn/12 text-warn',
  danger: 'border-loss/35 bg-loss/12 text-loss',
};

export function Badge({
  tone = 'neutral',
  glyph,
  children,
  className,
  title,
}: {
  tone?: Tone;
  glyph?: string;
  children: ReactNode;
  className?: string;
  /** Says more on hover, for a badge whose one word needs it. */
  title?: string;
}) {
  return (
    <span
      title={title}
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded border px-1.5 text-[11px] leading-none font-medium whitespace-nowrap',
        toneClasses[tone],
        className,
      )}
    >
      {glyph ? <span aria-hidden="true">{glyph}</span> : null}
      {children}
    </span>
  );
}

function isStatus(value: string): value is Status {
  return value in STATUS_STYLES;
}

/** A status from the server; unknown ones still render, neutral, with their raw name. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const { t } = useTranslation();
  const key = status.toLowerCase();
  if (!isStatus(key)) return <Badge className={className}>{status}</Badge>;
  const style = STATUS_STYLES[key];
  return (
    <Badge tone={style.tone} glyph={style.glyph} className={className}>
      {t(`status.${key}`)}
    </Badge>
  );
}
