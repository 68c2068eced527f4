import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer, type SealedAt } from './crypto';

const sealer = createSealer(randomBytes(32));
const at: SealedAt = { table: 'strategies', column: 'webhook_secret_sealed', row: 'a' };

describe('sealed values (issue 20: v2, bound to their table, column and row)', () => {
  it('seals as v2 and opens where it was sealed', () => {
    const sealed = sealer.seal('s3cret', at);
    expect(sealed).toMatch(/^v2:/);
    expect(sealed).not.toContain('s3cret');
    expect(sealer.open(sealed, at)).toBe('s3cret');
  });

  it.each([
    ['another row', { ...at, row: 'b' }],
    ['another column', { ...at, column: 'totp_secret_sealed' }],
    ['another table', { ...at, table: 'users' }],
  ])('refuses to open a value moved to %s', (_name, elsewhere) => {
    expect(() => sealer.open(sealer.seal('s3cret', at), elsewhere)).toThrow();
  });

  it('opens a v1 value only where no place is named (legacy, until re-sealed)', () => {
    const v1 = sealer.sealUnbound('old');
    expect(v1).toMatch(/^v1:/);
    expect(sealer.open(v1)).toBe('old');
    expect(() => sealer.open(v1, at)).toThrow(/v1/);
    expect(() => sealer.open(sealer.seal('new', at))).toThrow(/place/);
  });
});
