/**
 * Counter-based randomness: every draw is a pure function of its coordinates (seed, stream, day, index), so
 * any point of a simulated price path can be computed without replaying what came before it.
 */

/** 32-bit string hash (FNV-1a), used to turn a seed and a symbol into a stream id. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: spreads every input bit over the output. */
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in (0, 1), a pure function of the four coordinates. */
export function uniformAt(stream: number, a: number, b: number, c: number): number {
  // `a` may exceed 32 bits (minutes since the epoch): fold its high part in separately.
  let h = stream ^ Math.imul(a | 0, 0x27d4eb2f) ^ Math.imul(Math.floor(a / 0x100000000) | 0, 0x165667b1);
  h = mix(h);
  h = mix(h ^ Math.imul(b | 0, 0x9e3779b1) ^ Math.imul(c | 0, 0x85ebca77));
  return (h + 0.5) / 0x100000000;
}

/** Standard normal deviate (Box–Muller over two coordinate-addressed uniforms). */
export function normalAt(stream: number, a: number, b: number, c: number): number {
  const u1 = uniformAt(stream, a, b, 2 * c);
  const u2 = uniformAt(stream, a, b, 2 * c + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
