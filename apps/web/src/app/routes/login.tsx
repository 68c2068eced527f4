import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths, safeRedirectTarget } from '../../config/paths';
import { LoginForm } from '../../features/auth/components/login-form';
import { applyServerPreferences } from '../../features/settings/api/sync-preferences';
import { useSession } from '../../lib/session-store';
import { AuthFrame } from '../layout/auth-frame';

export function LoginRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const redirect = searchParams.get('redirect');
  const clearTwoFactor = useSession((state) => state.clearTwoFactor);
  // A 2FA step left half-done does not follow the user back to this page.
  useEffect(() => clearTwoFactor, [clearTwoFactor]);

  return (
    <AuthFrame
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.login.noAccount')}{' '}
          <Link
            to={redirect ? `${paths.register}?${new URLSearchParams({ redirect })}` : paths.register}
            className="font-medium text-accent hover:underline"
          >
            {t('auth.login.createOne')}
          </Link>
        </>
      }
    >
      <LoginForm
        onSuccess={async () => {
          // The user's saved theme, language and currency win over this browser's.
          await applyServerPreferences(queryClient);
          await navigate(safeRedirectTarget(redirect), { replace: true });
        }}
      />
    </AuthFrame>
  );
}

export { LoginRoute as Component };
