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
