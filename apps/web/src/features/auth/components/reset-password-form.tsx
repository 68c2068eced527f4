import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormError } from '../../../components/ui/form-error';
import {
  type ResetPasswordFormValues,
  resetPasswordFormSchema,
  useResetPassword,
} from '../api/reset-password';
import { PASSWORD_MESSAGES } from '../api/two-factor-messages';
import { NewPasswordFields } from './new-password-fields';

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
      <NewPasswordFields
        autoFocus
        password={register('password')}
        confirm={register('confirm_password')}
        errors={{ password: errors.password?.message, confirm: errors.confirm_password?.message }}
        labels={{ password: t('auth.reset.newPassword'), confirm: t('auth.reset.confirmPassword') }}
      />
      {reset.isError ? <FormError title={PASSWORD_MESSAGES.changeFailed} error={reset.error} /> : null}
      <Button type="submit" size="lg" loading={reset.isPending} className="w-full">
        {reset.isPending ? t('auth.reset.submitting') : t('auth.reset.submit')}
      </Button>
    </form>
  );
}
