/**
 * Tolerant reading of server rows: the spec lets some resources arrive in snake_case or
 * camelCase (bots, spec §3), so screens ask for a value under either name.
 */
export type Row = Record<string, unknown>;

export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function field(row: unknown, ...names: string[]): unknown {
  if (!isRow(row)) return undefined;
  for (const name of names) {
    if (row[name] !== undefined && row[name] !== null) return row[name];
  }
  return undefined;
}

export function text(row: unknown, ...names: string[]): string | undefined {
  const value = field(row, ...names);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** A numeric value as the server sent it (number or decimal string), for the formatters. */
export function numeric(row: unknown, ...names: string[]): number | string | undefined {
  const value = field(row, ...names);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return value;
  return undefined;
}

export function flag(row: unknown, ...names: string[]): boolean | undefined {
  const value = field(row, ...names);
  return typeof value === 'boolean' ? value : undefined;
}

/** The array in `results`, or in `results.<key>` for lists wrapped in an object (e.g. `{ bots: [...] }`). */
export function listFrom(results: unknown, ...keys: string[]): Row[] {
  if (Array.isArray(results)) return results.filter(isRow);
  for (const key of keys) {
    const nested = field(results, key);
    if (Array.isArray(nested)) return nested.filter(isRow);
  }
  return [];
}
