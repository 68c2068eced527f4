import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import {
  type ResetPasswordFormValues,
  resetPasswordFormSchema,
  useResetPassword,
} from '../api/reset-password';
import { PASSWORD_MESSAGES } from '../api/two-factor-messages';

/** The new password, twice, for the account of a reset link. */
export function ResetPasswordForm({
  email,
  token,
  onDone,
}: {
  email: string;
  token: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const reset = useResetPassword({ email, token });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordFormValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirm_password: '' },
  });

  return (
    <form
      onSubmit={handleSubmit((values) => reset.mutate(values, { onSuccess: onDone }))}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t('auth.reset.title')}
    >
      {/* Lets a password manager file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Input
        label={t('auth.reset.newPassword')}
        type="password"
        autoComplete="new-password"
        autoFocus
        hint={t('auth.register.passwordHint')}
        error={errors.password?.message}
        {...register('password')}
      />
      <Input
        label={t('auth.reset.confirmPassword')}
        type="password"
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...register('confirm_password')}
      />
      {reset.isError ? <FormError title={PASSWORD_MESSAGES.changeFailed} error={reset.error} /> : null}
      <Button type="submit" size="lg" loading={reset.isPending} className="w-full">
        {reset.isPending ? t('auth.reset.submitting') : t('auth.reset.submit')}
      </Button>
    </form>
  );
}
