import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CheckIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';

/**
 * The clipboard API only exists in secure contexts; a self-hosted Kairos is often reached over
 * plain http on a LAN, so fall back to a hidden textarea and execCommand there.
 */
export async function copyText(value: string): Promise<void> {
  if (navigator.clipboard?.writeText && window.isSecureContext) {
    await navigator.clipboard.writeText(value);
    return;
  }
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy failed');
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 1500);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label={label}
      icon={copied ? <CheckIcon size={14} className="text-gain" /> : undefined}
      onClick={() =>
        copyText(value).then(
          () => setCopied(true),
          () => toast.error(t('strategies.webhook.copyFailed')),
        )
      }
    >
      {copied ? t('strategies.webhook.copied') : t('strategies.webhook.copy')}
    </Button>
  );
}
