import { zodResolver } from '@hookform/resolvers/zod';
import { type RegisterFormInput, type RegisterFormValues, registerFormSchema } from '@kairos/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../i18n/translate-message';
import { type RegisterOutcome, useRegister } from '../api/register';
import { NewPasswordFields } from './new-password-fields';

export function RegisterForm({
  onSuccess,
  inviteToken,
}: {
  onSuccess: (outcome: RegisterOutcome) => void;
  /** From the admin's invite link (`/register?invite=…`): sent with the form (issue 20). */
  inviteToken?: string;
}) {
  const { t } = useTranslation();
  const registration = useRegister();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { email: '', password: '', confirm_password: '', setupToken: '' },
  });

  const onSubmit = handleSubmit((values) =>
    registration.mutate({ ...values, ...(inviteToken ? { inviteToken } : {}) }, { onSuccess }),
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t('auth.register.title')}
    >
      <Input
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <NewPasswordFields
        password={register('password')}
        confirm={register('confirm_password')}
        errors={{ password: errors.password?.message, confirm: errors.confirm_password?.message }}
        labels={{ password: t('auth.password'), confirm: t('auth.register.confirmPassword') }}
      />
      <details className="text-sm">
        <summary className="cursor-pointer text-muted hover:text-fg">{t('auth.register.firstAdmin')}</summary>
        <div className="mt-3 flex flex-col gap-2">
          <p className="text-muted">{t('auth.register.setupTokenHint')}</p>
          <Input
            label={t('auth.register.setupToken')}
            autoComplete="off"
            spellCheck={false}
            error={errors.setupToken?.message}
            {...register('setupToken')}
          />
        </div>
      </details>
      {registration.isError ? (
        <p role="alert" className="rounded-md border border-loss/30 bg-loss/10 px-3 py-2 text-sm text-loss">
          {errorMessage(t, registration.error)}
        </p>
      ) : null}
      <Button type="submit" size="lg" loading={registration.isPending} className="w-full">
        {registration.isPending ? t('auth.register.submitting') : t('auth.register.submit')}
      </Button>
    </form>
  );
}
