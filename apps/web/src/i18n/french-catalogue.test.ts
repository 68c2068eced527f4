// Issue 21: the French UI as a native speaker reads it — nothing left in English, one word per concept
// (docs/glossary.md), a count's words agreeing with it.
import { describe, expect, it } from 'vitest';
import { ENGLISH_TEXTS } from './english-texts';
import enUSMessages from './locales/en-US.messages';
import frFR from './locales/fr-FR';

/** Every text of a bundle by its dotted key. */
function texts(bundle: unknown, prefix = '', into: Record<string, string> = {}): Record<string, string> {
  if (typeof bundle !== 'object' || bundle === null) {
    into[prefix] = String(bundle);
    return into;
  }
  for (const [key, nested] of Object.entries(bundle)) texts(nested, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

const english = {
  ...texts(ENGLISH_TEXTS),
  ...Object.fromEntries(Object.entries(enUSMessages).map(([key, value]) => [`messages:${key}`, value])),
};
const french = {
  ...texts(frFR.translation),
  ...Object.fromEntries(Object.entries(frFR.messages).map(([key, value]) => [`messages:${key}`, value])),
};

/**
 * Words a French text may share with the English one: proper names, units and symbols, the trading terms the
 * glossary keeps (docs/glossary.md), and words spelt alike in both languages.
 */
const SAME_IN_BOTH = new Set(
  [
    // names, units, symbols
    'Kairos',
    'TradingView',
    'Testnet',
    'Webhook',
    'USDT',
    'BTC',
    'IP',
    'API',
    's',
    'O',
    'H',
    'C',
    'Vol',
    'pos',
    // trading terms kept in French (glossary)
    'PnL',
    'Long',
    'Short',
    'Spot',
    'Futures',
    'spot',
    'futures',
    'Bot',
    'Bots',
    'bot',
    'bots',
    'Trade',
    'Trades',
    'trade',
    'trades',
    'Trading',
    'Trader',
    'Stop-loss',
    'Take-profits',
    // spelt alike
    'Action',
    'Actions',
    'Position',
    'Allocation',
    'Volume',
    'Commission',
    'Total',
    'Notifications',
    'Message',
    'Secret',
    'Info',
    'Danger',
    'Active',
    'Administration',
    'Sections',
    'Gain',
    'Pages',
    'Profit',
    'Liquidation',
  ].map((word) => word.toLowerCase()),
);
/** Keys whose text is a code or an example the user types, the same in every language. */
const CODES = new Set(['audit.filters.actionPlaceholder', 'tradeList.filters.symbolPlaceholder']);

/** A text's words once its placeholders ({{x}}) are gone. */
const wordsOf = (text: string) =>
  text
    .replace(/\{\{[^}]+\}\}/g, ' ')
    .split(/[^\p{L}-]+/u)
    .filter(Boolean);

describe('the French catalogue (issue 21)', () => {
  it('leaves no English text: a text equal to its English one holds only names, units and shared words', () => {
    const untranslated = Object.keys(english).filter(
      (key) =>
        french[key] === english[key] &&
        !CODES.has(key) &&
        wordsOf(english[key] ?? '').some((word) => !SAME_IN_BOTH.has(word.toLowerCase())),
    );
    expect(untranslated.map((key) => `${key}: ${english[key]}`)).toEqual([]);
  });

  /**
   * One French word per concept (docs/glossary.md): the other names a concept had, and franglais. Each entry
   * is what must not appear, with the glossary's word to use instead.
   */
  const AVOID: [RegExp, string][] = [
    [/\bexchanges?\b/i, 'plateforme (a venue)'],
    [/\bpaper\b|\bpapier\b/i, 'simulé (the paper venue: « plateforme simulée », « compte simulé »)'],
    [/\bworkers?\b(?!\))/i, 'processus d’exécution (KAIROS_ROLE=worker aside)'],
    [/take profit/i, 'take-profit'],
    [/stop loss/i, 'stop-loss'],
    [/signal exit|exit signal/i, 'signal de sortie'],
    // « Trader », alone, is the role (a noun); the verb is « opérer », « passer des ordres ».
    [
      /\btrade-t-il\b|\btradent\b|\btradés?\b|\btrader\b(?!$)|\b(bot|Kairos|»|il) trade\b/i,
      'opérer (the verb); « trade » is the noun',
    ],
    [/^Nul$/, 'À l’équilibre (a flat PnL)'],
    [/\bpouss/i, 'envoyer au marché (push)'],
  ];

  it('follows the glossary: one word per concept, no franglais', () => {
    const found = Object.entries(french).flatMap(([key, text]) => {
      // The operator's command line is quoted as it is typed.
      const said = text.replace(/KAIROS_ROLE=worker/g, '').replace(/\{\{[^}]+\}\}/g, '');
      return AVOID.filter(([pattern]) => pattern.test(said)).map(([, use]) => `${key}: « ${text} » → ${use}`);
    });
    expect(found).toEqual([]);
  });

  /**
   * French spaces its high punctuation, and a line must not break before it (docs/decisions.md): a no-break
   * space (U+00A0) before « : » and « % » and inside « », a narrow one (U+202F) before « ; ? ! » — never an
   * ordinary space, and the other no-break space is the wrong one. Nor between a figure and its unit (« 5 min »).
   */
  const SPACING: [RegExp, string][] = [
    [/\s(?<![\u00a0\u202f])(?=[:;?!%»])|«\s(?<![\u00a0\u202f])/u, 'an ordinary space a line may break at'],
    [/\u202f[:%»]|«\u202f/u, 'U+00A0 before « : » and « % », inside « »'],
    [/\u00a0[;?!]/u, 'U+202F before « ; ? ! »'],
    [/[\p{L}\p{N}}][:;?!%»]|«[^\s]/u, 'a no-break space is missing'],
    [
      /(\d|\}\})\s(?<!\u00a0)(s|min|h|j|ms|jours?|heures?|USDT|BTC|EUR|USD|€)(?![\p{L}\d-])/u,
      'U+00A0 between a figure and its unit',
    ],
  ];

  it('spaces « : ; ? ! % », guillemets and units with no-break spaces, in every text and plural form', () => {
    const found = Object.entries(french).flatMap(([key, text]) =>
      SPACING.filter(([pattern]) => pattern.test(text)).map(
        ([, rule]) => `${key}: « ${text.replace(/\u00a0/g, '⍽').replace(/\u202f/g, '‿')} » → ${rule}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('says every count with its plural forms (ICU: _one and _other), in both languages', () => {
    for (const bundle of [english, french]) {
      const counted = Object.entries(bundle).filter(([, text]) => text.includes('{{count}}'));
      const unplural = counted
        .filter(([key]) => !/_(zero|one|two|few|many|other)$/.test(key))
        .map(([key]) => key);
      expect(unplural).toEqual([]);
      for (const [key] of counted) {
        const stem = key.replace(/_(zero|one|two|few|many|other)$/, '');
        expect(bundle[`${stem}_one`], `${stem}_one`).toBeTruthy();
        expect(bundle[`${stem}_other`], `${stem}_other`).toBeTruthy();
      }
    }
  });

  it('agrees French words with their count: "2 fermés", "1 fermé"', async () => {
    const { i18n, changeLanguage } = await import('./index');
    await changeLanguage('fr-FR');
    try {
      expect(i18n.t('bots.summary', { count: 3, active: i18n.t('bots.activeCount', { count: 2 }) })).toBe(
        '3 bots · 2 actifs',
      );
      expect(i18n.t('bots.summary', { count: 1, active: i18n.t('bots.activeCount', { count: 1 }) })).toBe(
        '1 bot · 1 actif',
      );
    } finally {
      await changeLanguage('en-US');
    }
  });
});
