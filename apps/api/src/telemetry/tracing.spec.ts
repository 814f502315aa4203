import { tracesRequested } from './tracing';

describe('tracesRequested', () => {
  it('is off without OTEL_* variables: nothing is loaded or exported', () => {
    expect(tracesRequested({})).toBe(false);
  });

  it.each([
    { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
    { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' },
    { OTEL_TRACES_EXPORTER: 'console' },
  ])('is on when an endpoint or exporter is named: %j', (env) => {
    expect(tracesRequested(env)).toBe(true);
  });

  it.each([
    { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' },
    { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' },
  ])('is off when the SDK or the traces exporter is turned off: %j', (env) => {
    expect(tracesRequested(env)).toBe(false);
  });
});
