import fc from 'fast-check';

/** The subset of JSON Schema (OpenAPI 3.0 flavour) that zod-to-OpenAPI produces for our contract. */
export type JsonSchema = {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

/** Strings that broke parsers, validators and SQL before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u202e\u0041',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1',
  '-0',
  '0x1F',
  '1_000',
  ' 12 ',
  '9'.repeat(400),
  '0.' + '0'.repeat(80) + '1',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  "' OR 1=1 --",
  "'); DROP TABLE users; --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%00',
  '%s%s%s%n',
  '0000-00-00',
  '9999-99-99T99:99:99Z',
  '2026-02-30',
  '-271821-04-19T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'BTC/USDT/ETH',
  'tp0',
  'tp99999999999999999999',
  'a@b',
  'A@EXAMPLE.COM ',
];

const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  0.1,
  -0.0000001,
  1.5,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** Type-blind junk: whatever the field, these must come back as a 4xx envelope. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom('x'.repeat(100_000), '🚀'.repeat(20_000), 'é'.repeat(5_000)),
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), {
      maxKeys: 3,
    }),
  );
}

function patternString(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.pattern) {
    try {
      const max = s.maxLength ?? 200;
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter((v) => v.length >= (s.minLength ?? 0) && v.length <= max);
    } catch {
      // A pattern fast-check cannot invert: plain strings still reach the validator.
    }
  }
  const maxLength = Math.min(s.maxLength ?? 40, 40);
  return fc.string({ minLength: Math.min(s.minLength ?? 0, maxLength), maxLength });
}

/** Values the schema accepts (as far as JSON Schema can say; zod refinements may still refuse them). */
export function validValue(s: JsonSchema): fc.Arbitrary<unknown> {
  let arb: fc.Arbitrary<unknown>;
  if (s.anyOf) arb = fc.oneof(...s.anyOf.map(validValue));
  else if (s.enum) arb = fc.constantFrom(...s.enum);
  else
    switch (s.type) {
      case 'string':
        arb = patternString(s);
        break;
      case 'integer':
        arb = fc.integer({
          min: Math.max(s.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
          max: Math.min(s.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
        });
        break;
      case 'number':
        arb = fc.double({
          min: s.minimum ?? -1_000_000,
          max: s.maximum ?? 1_000_000,
          noNaN: true,
          noDefaultInfinity: true,
        });
        break;
      case 'boolean':
        arb = fc.boolean();
        break;
      case 'array':
        arb = fc.array(validValue(s.items ?? {}), { maxLength: Math.min(s.maxItems ?? 4, 4) });
        break;
      case 'object': {
        const props = s.properties ?? {};
        arb = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validValue(v)])), {
          requiredKeys: (s.required ?? []).filter((k) => k in props),
        });
        break;
      }
      default:
        arb = fc.jsonValue({ maxDepth: 2 });
    }
  return s.nullable
    ? fc.oneof({ arbitrary: arb, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 })
    : arb;
}

/**
 * A value shaped like the schema with mutations anywhere in it: wrong types, out-of-range numbers,
 * huge and exotic strings, required fields dropped, fields added (including privilege-sounding ones).
 */
export function mutatedValue(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const isObject = s.type === 'object' && s.properties && depth < 3;
  const isArray = s.type === 'array' && depth < 3;
  let shaped: fc.Arbitrary<unknown>;
  if (isObject) {
    const props = s.properties!;
    // Every key optional: a required field is missing in some cases.
    const fields = fc.record(
      Object.fromEntries(Object.entries(props).map(([k, v]) => [k, mutatedValue(v, depth + 1)])),
      { requiredKeys: [] },
    );
    const extra = fc.dictionary(
      fc.oneof(
        fc.constantFrom('isAdmin', 'role', 'userId', 'id', 'user_id', 'apiToken'),
        fc.string({ maxLength: 8 }),
      ),
      hostileValue(),
      { maxKeys: 2 },
    );
    shaped = fc.tuple(fields, extra).map(([f, e]) => ({ ...e, ...f }));
  } else if (isArray) {
    shaped = fc.array(mutatedValue(s.items ?? {}, depth + 1), { maxLength: (s.maxItems ?? 4) + 2 });
  } else {
    shaped = validValue(s);
  }
  return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: hostileValue(), weight: 1 });
}

/** A JSON body as text, sometimes with prototype-pollution keys spliced in or not JSON at all. */
export function bodyText(schema: JsonSchema): fc.Arbitrary<string> {
  const json = mutatedValue(schema).map((v) => JSON.stringify(v) ?? 'null');
  const polluted = fc
    .tuple(
      mutatedValue(schema),
      fc.constantFrom(
        '"__proto__":{"isAdmin":true,"polluted":"yes"}',
        '"constructor":{"prototype":{"polluted":"yes"}}',
        '"__proto__":null',
      ),
    )
    .map(([v, key]) => {
      const text = JSON.stringify(v) ?? 'null';
      return text.startsWith('{') ? `{${key}${text === '{}' ? '' : ','}${text.slice(1)}` : `{${key}}`;
    });
  const broken = fc.constantFrom(
    '{',
    '{"a":',
    'nul',
    '[1,2',
    '{"a":1}}',
    '\u0000',
    '"unterminated',
    '{"a":1,}',
  );
  return fc.oneof(
    { arbitrary: json, weight: 6 },
    { arbitrary: polluted, weight: 2 },
    { arbitrary: broken, weight: 1 },
  );
}

export type QueryParameter = { name: string; schema: JsonSchema; required?: boolean };

/** A query string for these parameters: valid values, junk, repeated keys, stray keys, broken escapes. */
export function queryString(params: QueryParameter[]): fc.Arbitrary<string> {
  const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  const value = (s: JsonSchema) =>
    fc.oneof(
      { arbitrary: validValue(s).map(asText), weight: 3 },
      { arbitrary: hostileValue().map(asText), weight: 2 },
    );
  const pair = (name: string, s: JsonSchema) =>
    fc
      .array(value(s), { minLength: 1, maxLength: 3 })
      .map((vs) => vs.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v.slice(0, 4_000))}`));
  const known = fc.tuple(...params.map((p) => fc.option(pair(p.name, p.schema), { nil: undefined })));
  const stray = fc.array(
    fc.constantFrom(
      '__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      '__proto__=x',
      '%',
      '%E0%A4%A',
      '%FF%FE',
      '&&',
      '=',
      'a[b][c]=1',
      'userId=00000000-0000-4000-8000-000000000000',
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(known, stray)
    .map(([pairs, extra]) => [...pairs.flat().filter(Boolean), ...extra].join('&'));
}
