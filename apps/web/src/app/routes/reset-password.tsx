import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { paths } from '../../config/paths';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { AuthFrame } from '../layout/auth-frame';

/** Opened from the forgot-password mail: /reset-password?token=…&email=… */
export function ResetPasswordRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const email = searchParams.get('email')?.trim() ?? '';
  const backToLogin = (
    <Link to={paths.login} className="font-medium text-accent hover:underline">
      {t('auth.forgot.backToLogin')}
    </Link>
  );

  if (!token || !email) {
    return (
      <AuthFrame
        title={t('auth.reset.incompleteTitle')}
        subtitle={t('auth.reset.incomplete')}
        footer={backToLogin}
      >
        <Link to={paths.forgotPassword} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          {t('auth.reset.requestNew')}
        </Link>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame
      title={t('auth.reset.title')}
      subtitle={t('auth.reset.subtitle', { email })}
      footer={backToLogin}
    >
      <ResetPasswordForm
        email={email}
        token={token}
        onDone={() => {
          toast.success(t('auth.reset.done'));
          void navigate(paths.login, { replace: true });
        }}
      />
    </AuthFrame>
  );
}

export { ResetPasswordRoute as Component };
