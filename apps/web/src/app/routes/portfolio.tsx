import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { PortfolioOverview } from '../../features/portfolio/components/portfolio-overview';

export function PortfolioRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('portfolio.title')} description={t('portfolio.description')} />
      <PortfolioOverview />
    </>
  );
}

export { PortfolioRoute as Component };
