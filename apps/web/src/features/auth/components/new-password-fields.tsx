import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../components/ui/input';

/** The new password and its confirmation, as register, reset and change-password ask them. */
export function NewPasswordFields({
  password,
  confirm,
  errors,
  labels,
  autoFocus,
}: {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: string; confirm?: string };
  labels: { password: string; confirm: string };
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Input
        label={labels.password}
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        hint={t('auth.register.passwordHint')}
        error={errors.password}
        {...password}
      />
      <Input
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        {...confirm}
      />
    </>
  );
}
