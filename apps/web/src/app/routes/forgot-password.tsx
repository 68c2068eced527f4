import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';
import { AuthFrame } from '../layout/auth-frame';

export function ForgotPasswordRoute() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  return (
    <AuthFrame
      title={t('auth.forgot.title')}
      subtitle={t('auth.forgot.subtitle')}
      footer={
        <>
          {t('auth.forgot.remembered')}{' '}
          <Link to={paths.login} className="font-medium text-accent hover:underline">
            {t('auth.forgot.backToLogin')}
          </Link>
        </>
      }
    >
      <ForgotPasswordForm defaultEmail={searchParams.get('email') ?? ''} />
    </AuthFrame>
  );
}

export { ForgotPasswordRoute as Component };
