import autocannon from 'autocannon';

/** What one call measured over the run: throughput, latency percentiles (ms), failures. */
export interface Measured {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return Math.round(value * 10) / 10;
}

/** Drives one call with autocannon for `load.duration` seconds over `load.connections` connections. */
export async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  load: { connections: number; duration: number },
): Promise<Measured> {
  const { connections, duration } = load;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers }, (error, finished) =>
      error ? reject(error) : resolve(finished),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
