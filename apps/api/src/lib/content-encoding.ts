/** The encodings the web build writes beside its files, best first (brotli is about a fifth smaller). */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

export type Precompressed = (typeof PRECOMPRESSED)[number];

/**
 * The best of `available` that an `Accept-Encoding` header accepts, or none (send as is).
 * A coding with `q=0` is refused; `*` accepts any coding not named.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: readonly Precompressed[],
): Precompressed | undefined {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  return available.find(({ encoding }) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0);
}
