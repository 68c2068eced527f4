import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormError } from '../../../components/ui/form-error';
import { MailIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import {
  type ForgotPasswordFormValues,
  forgotPasswordFormSchema,
  useRequestPasswordReset,
} from '../api/forgot-password';
import { PASSWORD_MESSAGES } from '../api/two-factor-messages';

/** Asks for the reset mail; the answer never tells whether the account exists. */
export function ForgotPasswordForm({ defaultEmail = '' }: { defaultEmail?: string }) {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<ForgotPasswordFormValues>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: defaultEmail },
  });

  if (request.isSuccess) {
    return (
      <div role="status" className="flex flex-col items-start gap-3">
        <span className="rounded-full border border-info/30 bg-info/10 p-2.5 text-info">
          <MailIcon size={20} />
        </span>
        <p className="text-sm font-medium text-fg">{t('auth.forgot.sentTitle')}</p>
        <p className="text-sm text-muted">{t('auth.forgot.sent', { email: getValues('email') })}</p>
        <Button variant="secondary" size="sm" onClick={() => request.reset()}>
          {t('auth.forgot.sendAgain')}
        </Button>
      </div>
    );
  }

  return (
    <form
      onSubmit={handleSubmit((values) => request.mutate(values))}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t('auth.forgot.title')}
    >
      <Input
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        inputMode="email"
        autoFocus
        error={errors.email?.message}
        {...register('email')}
      />
      {request.isError ? (
        <FormError title={PASSWORD_MESSAGES.resetEmailFailed} error={request.error} />
      ) : null}
      <Button type="submit" size="lg" loading={request.isPending} className="w-full">
        {request.isPending ? t('auth.forgot.submitting') : t('auth.forgot.submit')}
      </Button>
    </form>
  );
}
