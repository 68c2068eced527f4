import type { ReactNode } from 'react';
import { PublicHeader } from './public-header';

/** The centred card Login and Register share. */
export function AuthFrame({
  title,
  subtitle,
  children,
  footer,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      <PublicHeader showAuthLinks={false} />
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-12 sm:items-center sm:py-16">
        <div className="w-full max-w-sm">
          <div className="rounded-xl border border-line bg-surface p-6 shadow-xl shadow-black/10 sm:p-7">
            <h1 className="text-lg font-semibold tracking-tight text-fg">{title}</h1>
            {subtitle ? <p className="mt-1 mb-5 text-sm text-muted">{subtitle}</p> : <div className="mb-5" />}
            {children}
          </div>
          {footer ? <p className="mt-5 text-center text-sm text-muted">{footer}</p> : null}
        </div>
      </main>
    </div>
  );
}
