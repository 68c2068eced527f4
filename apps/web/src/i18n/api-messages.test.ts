import {
  API_MESSAGES,
  apiMessageTemplate,
  templateParams,
  type ApiMessageValue,
  type ApiParams,
} from '@kairos/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from './index';
import { translateApiMessage } from './translate-message';

type Entry = { message: unknown; variants?: Record<string, unknown> };

/** Every sentence of the catalog: each code, each of its variants, each plural form (count 1 and 3). */
function sentences(): { label: string; code: string; params: ApiParams }[] {
  return Object.entries(API_MESSAGES as Record<string, Entry>).flatMap(([code, entry]) => {
    const forms = [undefined, ...Object.keys(entry.variants ?? {})].flatMap((variant) => {
      const base: Record<string, ApiMessageValue> = variant === undefined ? {} : { variant };
      const raw = variant === undefined ? entry.message : entry.variants?.[variant];
      // A plural sentence: each form, as `count` picks it.
      return typeof raw === 'string'
        ? [base]
        : [
            { ...base, count: 1 },
            { ...base, count: 3 },
          ];
    });
    return forms.map((form) => {
      const template = apiMessageTemplate(code, form)!;
      const values: Record<string, ApiMessageValue> = { ...form };
      // A distinct value per name, so each one can be looked for in the text.
      for (const name of templateParams(template)) if (!(name in values)) values[name] = `«${name}-7»`;
      const label = [code, form.variant, 'count' in form ? `count=${form.count}` : undefined]
        .filter(Boolean)
        .join(' ');
      return { label, code, params: values };
    });
  });
}

/** What the user reads in `language`, from the code and params alone (the fallback is never English). */
async function say(language: 'en-US' | 'fr-FR', code: string, params: ApiParams) {
  await changeLanguage(language);
  return translateApiMessage(i18n.t, code, params, '∅ fallback');
}

/** True when a text has letters of its own, once the values put in it are taken out. */
function hasWords(text: string, params: ApiParams): boolean {
  const bare = Object.values(params).reduce<string>(
    (rest, value) => rest.split(String(value)).join(''),
    text,
  );
  return [...bare].some((ch) => ch.toLowerCase() !== ch.toUpperCase());
}

describe('every API message, said from its code and params alone', () => {
  afterAll(() => changeLanguage('en-US'));
  const all = sentences();

  it('covers every code of the catalog', () => {
    expect(new Set(all.map((s) => s.code))).toEqual(new Set(Object.keys(API_MESSAGES)));
    expect(all.length).toBeGreaterThan(Object.keys(API_MESSAGES).length);
  });

  it.each(all)('$label', async ({ code, params }) => {
    const english = await say('en-US', code, params);
    const french = await say('fr-FR', code, params);
    for (const text of [english, french]) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toContain('∅ fallback');
      expect(text).not.toContain('{{');
      for (const [name, value] of Object.entries(params)) {
        if (name !== 'variant') expect(text, `${name} in "${text}"`).toContain(String(value));
      }
    }
    if (hasWords(english, params)) expect(french).not.toBe(english);
  });
});

describe('the numbers in a server message', () => {
  afterAll(() => changeLanguage('en-US'));

  it('are written the user’s way: a decimal comma and grouped thousands in French', async () => {
    const params = { variant: 'belowMinNotional', value: '0.57', min: '5' };
    expect(await say('en-US', 'ORDER_TOO_SMALL', params)).toBe(
      'Order value 0.57 is below the minimum notional 5',
    );
    expect(await say('fr-FR', 'ORDER_TOO_SMALL', params)).toMatch(/0,57/);
    const funds = { variant: 'balance', asset: 'USDT', needed: '12500.5', available: '9075.75' };
    expect(await say('en-US', 'INSUFFICIENT_FUNDS', funds)).toBe(
      'Insufficient USDT: 12,500.5 needed, 9,075.75 available',
    );
    const french = (await say('fr-FR', 'INSUFFICIENT_FUNDS', funds)).replace(/[\u202f\u00a0]/g, ' ');
    expect(french).toBe('USDT insuffisant : 12 500,5 nécessaires, 9 075,75 disponibles');
  });

  it('leave what is no number alone: an order id, a symbol', async () => {
    const text = await say('fr-FR', 'TAKE_PROFIT_PUSHED', { name: 'TP1', orderId: '123456789' });
    expect(text).toContain('123456789');
  });
});
