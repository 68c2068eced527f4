import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginFormInput, type LoginFormValues, loginFormSchema } from '@kairos/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { InfoIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../i18n/translate-message';
import { useSession } from '../../../lib/session-store';
import { LOGIN_MESSAGES, useLogin } from '../api/login';

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const { t } = useTranslation();
  const login = useLogin();
  const twoFactorRequired = useSession((state) => state.isTwoFactorRequired);
  const clearTwoFactor = useSession((state) => state.clearTwoFactor);
  // Issue 20: one of the ten recovery codes in place of the authenticator's code.
  const [recovery, setRecovery] = useState(false);
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors },
  } = useForm<LoginFormInput, unknown, LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '', code: '' },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (outcome) => {
        if (outcome.status === 'authenticated') onSuccess();
      },
      // A refused code is cleared so the next one is typed fresh.
      onError: () => resetField('code'),
    }),
  );

  const startOver = () => {
    clearTwoFactor();
    resetField('code');
    setRecovery(false);
    login.reset();
  };

  const toggleRecovery = () => {
    setRecovery((on) => !on);
    resetField('code');
    login.reset();
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t('auth.login.title')}>
      <Input
        label={t('auth.email')}
        type="email"
        autoComplete="username"
        inputMode="email"
        readOnly={twoFactorRequired}
        error={errors.email?.message}
        {...register('email')}
      />
      <Input
        label={t('auth.password')}
        type="password"
        autoComplete="current-password"
        readOnly={twoFactorRequired}
        error={errors.password?.message}
        {...register('password')}
      />
      {twoFactorRequired ? null : (
        <Link
          to={paths.forgotPassword}
          className="-mt-2 self-end text-xs text-muted hover:text-accent hover:underline"
        >
          {t('auth.login.forgotPassword')}
        </Link>
      )}
      {twoFactorRequired ? (
        <>
          <p
            role="status"
            className="flex items-start gap-2 rounded-md border border-info/30 bg-info/10 px-3 py-2 text-sm text-fg"
          >
            <InfoIcon className="mt-0.5 shrink-0 text-info" />
            <span>
              <strong className="font-medium">{errorMessage(t, LOGIN_MESSAGES.twoFactorRequired)}</strong>
              <span className="block text-xs text-muted">
                {t(recovery ? 'auth.login.recoveryCodeHint' : 'auth.login.codeHint')}
              </span>
            </span>
          </p>
          <Input
            key={recovery ? 'recovery' : 'totp'}
            label={t(recovery ? 'auth.login.recoveryCode' : 'auth.login.code')}
            autoComplete={recovery ? 'off' : 'one-time-code'}
            inputMode={recovery ? 'text' : 'numeric'}
            maxLength={recovery ? 13 : 8}
            autoFocus
            error={errors.code?.message}
            className="num tracking-[0.3em]"
            {...register('code')}
          />
          <button
            type="button"
            onClick={toggleRecovery}
            className="-mt-2 self-end text-xs text-muted hover:text-accent hover:underline"
          >
            {t(recovery ? 'auth.login.useAuthenticatorCode' : 'auth.login.useRecoveryCode')}
          </button>
        </>
      ) : null}
      {login.isError ? (
        <p role="alert" className="rounded-md border border-loss/30 bg-loss/10 px-3 py-2 text-sm text-loss">
          {errorMessage(t, login.error)}
        </p>
      ) : null}
      <Button type="submit" size="lg" loading={login.isPending} className="w-full">
        {login.isPending
          ? t('auth.login.submitting')
          : twoFactorRequired
            ? t('auth.login.verify')
            : t('auth.login.submit')}
      </Button>
      {twoFactorRequired ? (
        <Button variant="ghost" size="sm" onClick={startOver}>
          {t('auth.login.startOver')}
        </Button>
      ) : null}
    </form>
  );
}
