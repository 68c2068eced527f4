import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '../../components/ui/toast';
import { paths, safeRedirectTarget } from '../../config/paths';
import { RegisterForm } from '../../features/auth/components/register-form';
import { saveBrowserPreferences } from '../../features/settings/api/sync-preferences';
import { AuthFrame } from '../layout/auth-frame';

export function RegisterRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const redirect = searchParams.get('redirect');
  // Issue 20: an admin's invite link, needed while registration is closed.
  const invite = searchParams.get('invite')?.trim() || undefined;
  const loginPath = redirect ? `${paths.login}?${new URLSearchParams({ redirect })}` : paths.login;

  return (
    <AuthFrame
      title={t('auth.register.title')}
      subtitle={invite ? t('auth.register.invited') : t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')}{' '}
          <Link to={loginPath} className="font-medium text-accent hover:underline">
            {t('auth.register.login')}
          </Link>
        </>
      }
    >
      <RegisterForm
        inviteToken={invite}
        onSuccess={async (outcome) => {
          if (outcome.status === 'authenticated') {
            // A new account starts with the theme, language and currency chosen here.
            await saveBrowserPreferences(queryClient);
            await navigate(safeRedirectTarget(redirect), { replace: true });
          } else {
            toast.success(t('auth.register.created'));
            void navigate(loginPath, { replace: true });
          }
        }}
      />
    </AuthFrame>
  );
}

export { RegisterRoute as Component };
