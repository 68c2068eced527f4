/**
 * Server messages that carry values (a bot's name, a share). The server builds them here; the web reads
 * the values back by the error code and says the message in the user's language. One text, both sides.
 */
type Template<K extends string> = {
  keys: readonly K[];
  text: (values: Record<K, string>) => string;
};

const template = <K extends string>(keys: readonly K[], text: (values: Record<K, string>) => string) =>
  ({ keys, text }) satisfies Template<K>;

export const TEMPLATED_MESSAGES = {
  OVER_ALLOCATED: template(
    ['taken', 'left'],
    (v) => `This account is already ${v.taken}% allocated to other bots: at most ${v.left}% is left`,
  ),
  FUTURES_PAIR_TAKEN: template(
    ['bot', 'pair'],
    (v) =>
      `The bot "${v.bot}" already trades ${v.pair} on this futures account, which holds one position per symbol: stop it first or use another account`,
  ),
};

export type TemplatedMessageCode = keyof typeof TEMPLATED_MESSAGES;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The values a templated message was built with, or undefined when `message` is not that template's. */
export function readTemplatedMessage(code: string, message: string): Record<string, string> | undefined {
  const t = (TEMPLATED_MESSAGES as Record<string, Template<string>>)[code];
  if (!t) return undefined;
  // The template with a marker per value, turned into a pattern that captures each value.
  const marked = t.text(Object.fromEntries(t.keys.map((k, i) => [k, `\uE000${i}\uE000`])));
  const pattern = new RegExp(`^${escape(marked).replace(/\uE000\d+\uE000/g, '(.+?)')}$`, 's');
  const found = pattern.exec(message);
  if (!found) return undefined;
  const order = [...marked.matchAll(/\uE000(\d+)\uE000/g)].map((m) => t.keys[Number(m[1])]!);
  return Object.fromEntries(order.map((k, i) => [k, found[i + 1]!]));
}
