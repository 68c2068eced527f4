/**
 * A number as a person types it in their language (issue 21): "1,000" and "1,000.5" are a thousand in
 * English, "1 000,5" in French; a dot typed in French is a decimal point too ("0.5"). Answers a plain decimal
 * string ("1000.5") or null when the text is not a number in that language. In English a single comma that
 * cannot group thousands ("0,05") is read as a decimal comma; "1,000" stays a thousand.
 */
export function parseLocaleNumber(text: string, locale: string): string | null {
  const trimmed = text.trim().replace(/[\u00a0\u202f]/g, ' ');
  if (trimmed === '') return null;
  const french = locale.toLowerCase().startsWith('fr');
  let plain: string;
  if (french) {
    // Groups by spaces (or dots when a comma is the decimal mark); decimal mark a comma, or a lone dot.
    const grouped = /^\d{1,3}([ .]\d{3})+(,\d*)?$/.test(trimmed) && !/^\d{1,3}(\.\d{3})$/.test(trimmed);
    if (grouped) plain = trimmed.replace(/[ .]/g, '').replace(',', '.');
    else if (/^(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) plain = trimmed.replace(',', '.');
    else return null;
  } else {
    if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(trimmed)) plain = trimmed.replace(/,/g, '');
    else if (/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) plain = trimmed;
    // One comma that cannot be a thousands separator ("0,05"): a decimal comma from a European keyboard.
    else if (/^\d*,\d+$/.test(trimmed)) plain = trimmed.replace(',', '.');
    else return null;
  }
  plain = plain.replace(/\.$/, '');
  if (plain.startsWith('.')) plain = `0${plain}`;
  return plain.replace(/^0+(?=\d)/, '');
}
