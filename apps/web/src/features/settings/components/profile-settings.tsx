import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { Input } from '../../../components/ui/input';
import { SkeletonText } from '../../../components/ui/skeleton';
import { QueryView } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { useFormatters } from '../../../lib/use-formatters';
import { type UserProfile, useUserProfile } from '../api/get-user-profile';
import { type ProfileFormValues, profileFormSchema, useUpdateUserProfile } from '../api/update-user-profile';

function Facts({ items }: { items: Array<[ReactNode, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[minmax(7rem,10rem)_1fr] gap-x-4 gap-y-2.5 text-sm">
      {items.map(([label, value], index) => (
        <div key={index} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 break-words text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function usernameOf(email: string): string {
  return email.split('@')[0] ?? '';
}

function DisplayNameForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const update = useUpdateUserProfile();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { displayName: profile.displayName ?? '' },
  });
  return (
    <form
      onSubmit={handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: (saved) => {
            reset({ displayName: saved.displayName ?? '' });
            toast.success(t('settings.profile.saved'));
          },
        }),
      )}
      noValidate
      className="flex max-w-md flex-col gap-3"
      aria-label={t('settings.tabs.profile')}
    >
      <Input
        label={t('settings.profile.displayName')}
        autoComplete="nickname"
        maxLength={80}
        placeholder={usernameOf(profile.email)}
        hint={t('settings.profile.displayNameHint', { username: usernameOf(profile.email) })}
        error={errors.displayName?.message}
        {...register('displayName')}
      />
      {update.isError ? <FormError error={update.error} /> : null}
      <div>
        <Button type="submit" loading={update.isPending} disabled={!isDirty}>
          {t('settings.profile.save')}
        </Button>
      </div>
    </form>
  );
}

/** Settings › Profile: who the account is, and the name it goes by. */
export function ProfileSettings() {
  const { t } = useTranslation();
  const format = useFormatters();
  const profile = useUserProfile();
  return (
    <Card>
      <CardHeader title={t('settings.tabs.profile')} description={t('settings.profile.description')} />
      <CardBody>
        <QueryView query={profile} loading={<SkeletonText lines={5} className="max-w-md" />}>
          {(data) => (
            <div className="flex flex-col gap-6">
              <Facts
                items={[
                  [t('auth.email'), data.email],
                  [t('settings.username'), usernameOf(data.email)],
                  [
                    t('settings.role'),
                    data.role === 'admin' ? t('userMenu.roleAdmin') : t('userMenu.roleUser'),
                  ],
                  [t('settings.memberSince'), format.dateTime(data.createdAt)],
                ]}
              />
              <div className="border-t border-line pt-5">
                <DisplayNameForm profile={data} />
              </div>
            </div>
          )}
        </QueryView>
      </CardBody>
    </Card>
  );
}
