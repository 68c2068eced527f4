import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

const PERIOD = 30;

function totp(secretBase32: string, email: string) {
  return new OTPAuth.TOTP({
    issuer: 'Kairos',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export async function totpEnrolment(secretBase32: string, email: string) {
  const otpauthUrl = totp(secretBase32, email).toString();
  const qrCode = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { secret: secretBase32, otpauthUrl, qrCode };
}

/** RFC 6238 check with ±1 step; returns the matched time step (to refuse its reuse) or null. */
export function matchTotpStep(
  secretBase32: string,
  email: string,
  code: string,
  now = Date.now(),
): number | null {
  const delta = totp(secretBase32, email).validate({ token: code, window: 1, timestamp: now });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}
