import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { useSession } from '../../../lib/session-store';
import {
  type ChangePasswordFormValues,
  changePasswordFormSchema,
  useChangePassword,
} from '../api/change-password';
import { PASSWORD_MESSAGES } from '../api/two-factor-messages';
import { NewPasswordFields } from './new-password-fields';

/** Settings › Security: a new password, given the current one. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const email = useSession((state) => state.user?.email ?? '');
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordFormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', password: '', confirm_password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => {
        reset();
        toast.success(t('settings.security.passwordChanged'));
      },
    }),
  );

  return (
    <Card>
      <CardHeader
        title={t('settings.security.passwordTitle')}
        description={t('settings.security.passwordDescription')}
      />
      <CardBody>
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex max-w-sm flex-col gap-4"
          aria-label={t('settings.security.passwordTitle')}
        >
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <Input
            label={t('settings.security.currentPassword')}
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <NewPasswordFields
            password={register('password')}
            confirm={register('confirm_password')}
            errors={{ password: errors.password?.message, confirm: errors.confirm_password?.message }}
            labels={{
              password: t('settings.security.newPassword'),
              confirm: t('settings.security.confirmPassword'),
            }}
          />
          {change.isError ? <FormError title={PASSWORD_MESSAGES.changeFailed} error={change.error} /> : null}
          <div>
            <Button type="submit" loading={change.isPending}>
              {t('settings.security.changePassword')}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
