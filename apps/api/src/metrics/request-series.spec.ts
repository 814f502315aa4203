import { Registry, type Metric } from 'prom-client';
import { RequestSeries } from './request-series';

describe('RequestSeries', () => {
  async function exposition(record: (series: RequestSeries) => void): Promise<string> {
    const series = new RequestSeries([0.01, 0.1], (route) =>
      route.startsWith('/products') ? 'catalog' : 'none',
    );
    record(series);
    const registry = new Registry();
    registry.registerMetric(series.counter('requests_total', 'Requests') as unknown as Metric);
    registry.registerMetric(series.histogram('duration_seconds', 'Time') as unknown as Metric);
    return registry.metrics();
  }

  it('counts by domain, route, method and status, with cumulative buckets as prom-client writes them', async () => {
    const text = await exposition((series) => {
      series.record('/products/:id', 'GET', 200, 0.004);
      series.record('/products/:id', 'GET', 200, 0.05);
      series.record('/products/:id', 'GET', 200, 3);
      series.record('/products/:id', 'GET', 404, 0.002);
      series.record('/products', 'POST', 201, 0.02);
      series.record('/healthz', 'GET', 200, 0.001);
    });
    const lines = text.split('\n');
    const get200 = 'domain="catalog",route="/products/:id",method="GET",status="200"';
    expect(lines).toContain('# TYPE requests_total counter');
    expect(lines).toContain(`requests_total{${get200}} 3`);
    expect(lines).toContain(
      'requests_total{domain="catalog",route="/products/:id",method="GET",status="404"} 1',
    );
    expect(lines).toContain(
      'requests_total{domain="catalog",route="/products",method="POST",status="201"} 1',
    );
    expect(lines).toContain(
      'requests_total{domain="none",route="/healthz",method="GET",status="200"} 1',
    );
    expect(lines).toContain('# TYPE duration_seconds histogram');
    expect(lines).toContain(`duration_seconds_bucket{${get200},le="0.01"} 1`);
    expect(lines).toContain(`duration_seconds_bucket{${get200},le="0.1"} 2`);
    expect(lines).toContain(`duration_seconds_bucket{${get200},le="+Inf"} 3`);
    expect(lines).toContain(`duration_seconds_sum{${get200}} 3.054`);
    expect(lines).toContain(`duration_seconds_count{${get200}} 3`);
  });

  it('exposes no samples before the first request', async () => {
    const text = await exposition(() => undefined);
    expect(text).not.toMatch(/^requests_total\{/m);
    expect(text).toContain('# TYPE duration_seconds histogram');
  });
});
