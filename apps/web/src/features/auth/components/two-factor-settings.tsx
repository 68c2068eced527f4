import { zodResolver } from '@hookform/resolvers/zod';
import { twoFactorCodeSchema, VALIDATION_MESSAGES } from '@kairos/contract';
import { type ReactNode, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Badge } from '../../../components/ui/status-badge';
import { toast } from '../../../components/ui/toast';
import { useSession } from '../../../lib/session-store';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { type TwoFactorEnrolment, useEnableTwoFactor } from '../api/enable-two-factor';
import { TWO_FACTOR_MESSAGES } from '../api/two-factor-messages';
import { useVerifyTwoFactor } from '../api/verify-two-factor';

/** The current password as typed (never trimmed). */
const passwordFieldSchema = z.string().min(1, VALIDATION_MESSAGES.required);
const codeFormSchema = z.object({ code: twoFactorCodeSchema, password: z.string() });
const codeAndPasswordSchema = codeFormSchema.extend({ password: passwordFieldSchema });
type CodeFormValues = z.infer<typeof codeFormSchema>;

/** A 2FA form's buttons: its submit, and Cancel. */
function SubmitOrCancel({
  label,
  variant = 'primary',
  pending,
  onCancel,
}: {
  label: string;
  variant?: 'primary' | 'danger';
  pending: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex gap-2">
      <Button type="submit" variant={variant} loading={pending}>
        {label}
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </div>
  );
}

/** The current password, which every change of 2FA asks for (issue 20). */
function PasswordField({ error, ...field }: UseFormRegisterReturn & { error?: string }) {
  const { t } = useTranslation();
  return (
    <Input
      label={t('settings.security.yourPassword')}
      type="password"
      autoComplete="current-password"
      error={error}
      fieldClassName="max-w-xs"
      {...field}
    />
  );
}

/** Before enrolment starts: the current password. */
function PasswordStep({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (password: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ password: string }>({
    resolver: zodResolver(z.object({ password: passwordFieldSchema })),
    defaultValues: { password: '' },
  });
  return (
    <form
      onSubmit={handleSubmit(({ password }) => onSubmit(password))}
      noValidate
      className="flex max-w-sm flex-col gap-3"
      aria-label={t('settings.security.passwordPrompt')}
    >
      <p className="text-sm text-muted">{t('settings.security.passwordPrompt')}</p>
      <PasswordField error={errors.password?.message} {...register('password')} />
      {error ? <FormError title={TWO_FACTOR_MESSAGES.enableFailed} error={error} /> : null}
      <SubmitOrCancel label={t('settings.security.continue')} pending={pending} onCancel={onCancel} />
    </form>
  );
}

/** The ten recovery codes, shown once right after 2FA is turned on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex max-w-md flex-col gap-3" data-testid="recovery-codes">
      <p className="text-sm font-medium text-fg">{t('settings.security.recoveryTitle')}</p>
      <p className="text-sm text-muted">{t('settings.security.recoveryHint')}</p>
      <ul
        aria-label={t('settings.security.recoveryListLabel')}
        className="grid grid-cols-2 gap-1.5 rounded-md border border-line bg-surface-2 p-3 font-mono text-sm text-fg select-all"
      >
        {codes.map((code) => (
          <li key={code} className="num">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <CopyButton text={codes.join('\n')} label={t('settings.security.copyAll')} />
        <Button onClick={onDone}>{t('settings.security.recoverySaved')}</Button>
      </div>
    </div>
  );
}

/** The 6-digit code of spec §5 (and, to turn 2FA off, the password), with the failure of the step it confirms. */
function CodeForm({
  label,
  submitLabel,
  submitVariant = 'primary',
  pending,
  error,
  errorTitle,
  onSubmit,
  onCancel,
  withPassword = false,
  children,
}: {
  withPassword?: boolean;
  label: string;
  submitLabel: string;
  submitVariant?: 'primary' | 'danger';
  pending: boolean;
  error: unknown;
  errorTitle: string;
  onSubmit: (code: string, password: string) => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CodeFormValues>({
    resolver: zodResolver(withPassword ? codeAndPasswordSchema : codeFormSchema),
    defaultValues: { code: '', password: '' },
  });
  return (
    <form
      onSubmit={handleSubmit(({ code, password }) => onSubmit(code, password))}
      noValidate
      className="flex max-w-sm flex-col gap-3"
      aria-label={submitLabel}
    >
      {children}
      <Input
        label={label}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        autoFocus
        placeholder="000000"
        error={errors.code?.message}
        fieldClassName="w-44"
        className="num tracking-[0.3em]"
        {...register('code')}
      />
      {withPassword ? <PasswordField error={errors.password?.message} {...register('password')} /> : null}
      {error ? <FormError title={errorTitle} error={error} /> : null}
      <SubmitOrCancel label={submitLabel} variant={submitVariant} pending={pending} onCancel={onCancel} />
    </form>
  );
}

/** The secret in groups of four, as authenticator apps show keys. */
function groupedSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      icon={copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
      onClick={() => {
        navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => undefined, // no clipboard (insecure origin): the key is still there to select
        );
      }}
    >
      {copied ? t('common.copied') : (label ?? t('common.copy'))}
    </Button>
  );
}

function Enrolment({
  enrolment,
  onCancel,
  onVerified,
}: {
  enrolment: TwoFactorEnrolment;
  onCancel: () => void;
  onVerified: (recoveryCodes: string[]) => void;
}) {
  const { t } = useTranslation();
  const verify = useVerifyTwoFactor({
    onVerified: (codes) => {
      toast.success(t('settings.security.enabled'));
      onVerified(codes);
    },
  });
  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr]">
      <div className="flex flex-col items-start gap-2">
        <p className="text-sm font-medium text-fg">
          <span className="num mr-1.5 text-subtle">1.</span>
          {t('settings.security.scanTitle')}
        </p>
        {enrolment.qrCode ? (
          <img
            src={enrolment.qrCode}
            alt={t('settings.security.qrAlt')}
            width={176}
            height={176}
            data-testid="two-factor-qr"
            className="rounded-md border border-line bg-white p-1.5"
          />
        ) : null}
        <p className="max-w-56 text-xs text-subtle">{t('settings.security.scanHint')}</p>
      </div>
      <div className="flex min-w-0 flex-col gap-5">
        <div className="flex flex-col gap-1.5">
          <p className="text-xs font-medium text-muted">{t('settings.security.manualCode')}</p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              data-testid="two-factor-secret"
              className="num rounded-md border border-line bg-surface-2 px-2.5 py-1.5 font-mono text-sm break-all text-fg select-all"
            >
              {groupedSecret(enrolment.secret)}
            </code>
            <CopyButton text={enrolment.secret} />
          </div>
        </div>
        <CodeForm
          label={t('settings.security.code')}
          submitLabel={t('settings.security.verify')}
          pending={verify.isPending}
          error={verify.error}
          errorTitle={TWO_FACTOR_MESSAGES.verificationFailed}
          onCancel={onCancel}
          onSubmit={(code) => verify.mutate(code)}
        >
          <p className="text-sm font-medium text-fg">
            <span className="num mr-1.5 text-subtle">2.</span>
            {t('settings.security.codeTitle')}
          </p>
        </CodeForm>
      </div>
    </div>
  );
}

/** Settings › Security: turn TOTP two-factor authentication on (QR code, key, first code) or off. */
export function TwoFactorSettings() {
  const { t } = useTranslation();
  const isOn = useSession((state) => state.user?.useTwoFa ?? false);
  const clearTwoFactor = useSession((state) => state.clearTwoFactor);
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const [disabling, setDisabling] = useState(false);
  const [askingPassword, setAskingPassword] = useState(false);
  // Shown once, right after enrolment; gone when the user says they saved them (or leaves the page).
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const cancelEnrolment = () => {
    enable.reset();
    clearTwoFactor();
    setAskingPassword(false);
  };

  let body: ReactNode;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          enable.reset();
        }}
      />
    );
  } else if (isOn) {
    body = disabling ? (
      <CodeForm
        withPassword
        label={t('settings.security.code')}
        submitLabel={t('settings.security.disableConfirm')}
        submitVariant="danger"
        pending={disable.isPending}
        error={disable.error}
        errorTitle={TWO_FACTOR_MESSAGES.disableFailed}
        onCancel={() => {
          setDisabling(false);
          disable.reset();
        }}
        onSubmit={(code, password) =>
          disable.mutate(
            { code, password },
            {
              onSuccess: () => {
                setDisabling(false);
                enable.reset();
                toast.success(t('settings.security.disabled'));
              },
            },
          )
        }
      >
        <p className="text-sm text-muted">{t('settings.security.disableHint')}</p>
      </CodeForm>
    ) : (
      <Button variant="secondary" onClick={() => setDisabling(true)}>
        {t('settings.security.disable')}
      </Button>
    );
  } else if (enable.data) {
    body = (
      <Enrolment
        enrolment={enable.data}
        onCancel={cancelEnrolment}
        onVerified={(codes) => {
          setAskingPassword(false);
          setRecoveryCodes(codes);
        }}
      />
    );
  } else if (askingPassword) {
    body = (
      <PasswordStep
        pending={enable.isPending}
        error={enable.error}
        onSubmit={(password) => enable.mutate(password)}
        onCancel={cancelEnrolment}
      />
    );
  } else {
    body = (
      <div className="flex max-w-sm flex-col items-start gap-3">
        <Button onClick={() => setAskingPassword(true)}>{t('settings.security.enable')}</Button>
      </div>
    );
  }

  return (
    <Card>
      <CardHeader
        title={t('settings.twoFactor')}
        description={t('settings.security.twoFactorDescription')}
        actions={
          isOn ? (
            <Badge tone="success" glyph="✓">
              {t('settings.security.statusOn')}
            </Badge>
          ) : (
            <Badge glyph="–">{t('settings.security.statusOff')}</Badge>
          )
        }
      />
      <CardBody>{body}</CardBody>
    </Card>
  );
}
