import { cn } from '../../lib/cn';

export function LogoMark({ size = 24, className }: { size?: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className={className}>
      <rect width="32" height="32" rx="7" className="fill-surface-3" />
      <path
        d="M10 7v18M10 16l10-9M13.5 13l7.5 12"
        className="stroke-accent"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-2 text-base font-semibold tracking-tight text-fg',
        className,
      )}
    >
      <LogoMark />
      Kairos
    </span>
  );
}
