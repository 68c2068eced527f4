import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { BotIcon, ChartIcon, LinkIcon, ShieldIcon } from '../../components/ui/icons';
import { paths } from '../../config/paths';
import { PublicHeader } from '../layout/public-header';

function Feature({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-line bg-surface p-5">
      <span className="inline-flex rounded-md border border-line bg-surface-2 p-2 text-accent">{icon}</span>
      <h3 className="mt-3 text-sm font-semibold text-fg">{title}</h3>
      <p className="mt-1.5 text-sm leading-relaxed text-muted">{children}</p>
    </div>
  );
}

const ALERT_EXAMPLE = `{
  "strategyKey": "btc-trend-4h",
  "secret": "••••••••",
  "action": "long",
  "symbol": "BTC/USDT",
  "price": {{close}}
}`;

export function HomeRoute() {
  const { t } = useTranslation();
  return (
    <div className="min-h-dvh bg-bg">
      <PublicHeader />
      <main id="main">
        <section className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-14 pb-12 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:pt-20">
          <div>
            <p className="mb-3 inline-flex items-center gap-2 rounded-full border border-line bg-surface px-3 py-1 text-xs text-muted">
              <span className="h-1.5 w-1.5 rounded-full bg-gain" aria-hidden="true" />
              {t('home.eyebrow')}
            </p>
            <h1 className="text-3xl font-semibold tracking-tight text-fg sm:text-4xl lg:text-5xl">
              {t('home.title')}
            </h1>
            <p className="mt-4 max-w-xl text-base leading-relaxed text-muted">{t('home.subtitle')}</p>
            <div className="mt-7 flex flex-wrap gap-3">
              <Link to={paths.register} className={buttonClasses({ size: 'lg' })}>
                {t('home.register')}
              </Link>
              <Link to={paths.login} className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
                {t('home.login')}
              </Link>
            </div>
          </div>
          <figure className="overflow-hidden rounded-xl border border-line bg-surface shadow-2xl shadow-black/20">
            <figcaption className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b border-line px-4 py-2.5 text-xs text-muted">
              <span>{t('home.alertCaption')}</span>
              <span className="font-mono text-subtle">POST /webhooks/tradingview</span>
            </figcaption>
            <pre className="overflow-x-auto p-4 font-mono text-[13px] leading-relaxed text-fg">
              <code>{ALERT_EXAMPLE}</code>
            </pre>
            <div className="grid grid-cols-3 border-t border-line text-xs">
              {(['home.flowSignal', 'home.flowBots', 'home.flowOrders'] as const).map((key, index) => (
                <div key={key} className="border-line px-4 py-3 not-first:border-l">
                  <span className="num text-subtle">0{index + 1}</span>
                  <p className="mt-0.5 text-fg">{t(key)}</p>
                </div>
              ))}
            </div>
          </figure>
        </section>

        <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
          <h2 id="features" className="sr-only">
            {t('home.featuresTitle')}
          </h2>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Feature icon={<BotIcon size={18} />} title={t('home.featureBotsTitle')}>
              {t('home.featureBots')}
            </Feature>
            <Feature icon={<LinkIcon size={18} />} title={t('home.featureWebhooksTitle')}>
              {t('home.featureWebhooks')}
            </Feature>
            <Feature icon={<ChartIcon size={18} />} title={t('home.featurePaperTitle')}>
              {t('home.featurePaper')}
            </Feature>
            <Feature icon={<ShieldIcon size={18} />} title={t('home.featureSelfHostedTitle')}>
              {t('home.featureSelfHosted')}
            </Feature>
          </div>
        </section>
      </main>
      <footer className="border-t border-line">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-5 text-xs text-subtle sm:px-6">
          <span>{t('home.footer')}</span>
          <Link to={paths.components} className="hover:text-fg">
            {t('nav.components')}
          </Link>
        </div>
      </footer>
    </div>
  );
}

export { HomeRoute as Component };
