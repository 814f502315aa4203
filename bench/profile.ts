import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from './bench.config';
import { CpuProfile, sharesByPackage } from './cpu-profile.analyzer';
import { deadEndpoint } from './dead-endpoint';
import type { BenchOptions } from './options';
import { measure, portOf, type Measurement } from './scenarios';
import { RunningServer } from './servers';

// Always listed, so that before and after tables line up; other packages from 0.5 %.
// Node internals include V8's (program): native time outside JavaScript.
const LISTED = [
  'typeorm',
  '@nestjs/core',
  'rxjs',
  'express',
  'pino/pino-http',
  'passport',
  'ajv',
  'class-validator',
  'the kit',
  'the app',
  'pg',
  'node internals',
  'garbage collector',
];

/**
 * Runs the service with --cpu-prof under one scenario's load (with `--webhooks`, with an active
 * endpoint that never answers); time shares by package.
 */
export async function profileService(scenario: string, options: BenchOptions): Promise<string> {
  const directory = join(BENCH.workDir, 'profile');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const server = await RunningServer.start(
    {
      kind: 'service',
      port: portOf('service'),
      processes: 1,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${directory}`],
      extraEnv: options.webhooks ? deadEndpoint.env : undefined,
    },
    'service-profile',
  );
  let measured: Measurement;
  const endpoint = options.webhooks ? await deadEndpoint.subscribe(server.url) : undefined;
  try {
    measured = await measure(server, scenario, options);
  } finally {
    await server.stop();
    endpoint?.close();
  }
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`the service wrote no profile into ${directory}`);
  const profile = JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile;
  const byPackage = sharesByPackage(profile, options.measureSeconds);
  const absent = LISTED.filter((name) => !byPackage.some((share) => share.name === name));
  const shares = [
    ...byPackage.filter((share) => LISTED.includes(share.name) || share.inclusive >= 0.005),
    ...absent.map((name) => ({ name, inclusive: 0, self: 0 })),
  ];
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  // A share of the CPU time per request the process used under the profiler.
  const micros = (value: number) => (value * measured.cpuMicrosPerRequest).toFixed(1);
  return [
    `${scenario} under --cpu-prof: ${Math.round(measured.requestsPerSecond)} req/s, ${measured.cpuMicrosPerRequest.toFixed(0)} µs of CPU per request (profiling slows the service; compare shares and µs, not rates)`,
    `Profile: ${join(directory, file)}; shares of the busy time in the last ${options.measureSeconds} s (the measured load)`,
    '',
    '| package | inclusive | self | inclusive µs/req | self µs/req |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...shares.map((share) =>
      row(
        share.name,
        percent(share.inclusive),
        percent(share.self),
        micros(share.inclusive),
        micros(share.self),
      ),
    ),
  ].join('\n');
}

function row(...cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}
