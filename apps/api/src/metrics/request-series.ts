type Labels = { domain: string; route: string; method: string; status: number };

interface Series {
  readonly labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative; the last one is above every bound (+Inf). */
  readonly perBucket: number[];
}

/**
 * The request counter and latency histogram, by route template (and its domain), method and
 * status, kept as
 * one map lookup per request. prom-client's own Counter and Histogram hash and validate the
 * labels on every call, about 10 µs of a 170 µs read (docs/performance.md); here that work
 * happens when /metrics is read. The exposition is prom-client's, from the metrics below.
 */
export class RequestSeries {
  // By route, method, then status: each key is a string the request already holds (its hash
  // cached) or a number, where one joined key would be a new string to hash per request.
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    private readonly bounds: readonly number[],
    /** The domain of a route template, computed once per series, not per request. */
    private readonly domainOf: (route: string) => string,
  ) {}

  record(route: string, method: string, status: number, seconds: number): void {
    const byMethod = childOf(this.series, route, () => new Map<string, Map<number, Series>>());
    const byStatus = childOf(byMethod, method, () => new Map<number, Series>());
    const series = childOf(byStatus, status, () => ({
      labels: { domain: this.domainOf(route), route, method, status },
      count: 0,
      sum: 0,
      perBucket: new Array<number>(this.bounds.length + 1).fill(0),
    }));
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket++;
    series.perBucket[bucket] += 1;
  }

  /** `http_requests_total`, as prom-client's registry reads a metric. */
  counter(name: string, help: string): PrometheusMetric {
    return this.metric(name, help, 'counter', ({ labels, count }) => [{ labels, value: count }]);
  }

  /** `http_request_duration_seconds`: cumulative `_bucket`s with `le`, `_sum`, `_count`. */
  histogram(name: string, help: string): PrometheusMetric {
    return this.metric(name, help, 'histogram', ({ labels, count, sum, perBucket }) => {
      let cumulative = 0;
      const buckets = perBucket.map((observed, index) => {
        cumulative += observed;
        const le = index < this.bounds.length ? this.bounds[index] : '+Inf';
        return { metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${name}_sum`, labels, value: sum },
        { metricName: `${name}_count`, labels, value: count },
      ];
    });
  }

  private all(): Series[] {
    const all: Series[] = [];
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) all.push(...byStatus.values());
    }
    return all;
  }

  private metric(
    name: string,
    help: string,
    type: PrometheusMetric['type'],
    samples: (series: Series) => Sample[],
  ): PrometheusMetric {
    return {
      name,
      help,
      type,
      get: () => {
        const values = this.all().flatMap(samples);
        return Promise.resolve({ name, help, type, values, aggregator: 'sum' });
      },
    };
  }
}

function childOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let child = map.get(key);
  if (child === undefined) {
    child = create();
    map.set(key, child);
  }
  return child;
}

interface Sample {
  readonly metricName?: string;
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

/** What prom-client's `Registry` reads of a metric (`registerMetric`, then `get()` at scrape). */
export interface PrometheusMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: 'sum' }>;
}
