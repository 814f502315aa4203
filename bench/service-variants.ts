import { BENCH } from './bench.config';
import { connect } from './fixtures';
import type { BenchOptions } from './options';
import type { RunResults } from './report';
import { DATA_FILE, measure, portOf, VARIANT_PORT } from './scenarios';
import { RunningServer } from './servers';
import { loadFor } from './wrk.runner';

/**
 * S1 with output validation on and with OUTPUT_VALIDATION=off, two services side by side
 * and measured one right after the other; 'n/a' while the service ignores the switch.
 */
export async function measureOutputValidation(
  options: BenchOptions,
): Promise<RunResults['outputValidation']> {
  const [on, off] = await Promise.all([
    RunningServer.start(
      { kind: 'service', port: portOf('service'), processes: 1 },
      'service-validation-on',
    ),
    RunningServer.start(
      {
        kind: 'service',
        port: VARIANT_PORT,
        processes: 1,
        extraEnv: { OUTPUT_VALIDATION: 'off' },
      },
      'service-validation-off',
    ),
  ]);
  try {
    if (!(await validationIsOff(off.url))) return 'n/a';
    return { on: await measure(on, 'S1', options), off: await measure(off, 'S1', options) };
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
}

// A product stored with a currency outside the declared enum is a 500 while validation runs.
async function validationIsOff(url: string): Promise<boolean> {
  const sql = await connect();
  const id = 'bench-output-validation-probe';
  try {
    await sql.query(
      `INSERT INTO "${BENCH.schema}".products (id, created_at, updated_at, name, price_cents, currency, stock)
       VALUES ($1, '2100-01-01', '2100-01-01', 'probe', 0, 'ZZZ', 0)`,
      [id],
    );
    const response = await fetch(`${url}/products/${id}`);
    await response.arrayBuffer();
    return response.status === 200;
  } finally {
    await sql.query(`DELETE FROM "${BENCH.schema}".products WHERE id = $1`, [id]);
    await sql.end();
  }
}

/** The mixed soak on the service alone, one process, with its RSS at the start and the end. */
export async function soak(options: BenchOptions): Promise<RunResults['soak']> {
  process.stdout.write(`soak, ${options.soakSeconds} s\n`);
  const server = await RunningServer.start(
    { kind: 'service', port: portOf('service'), processes: 1 },
    'service-soak',
  );
  try {
    const rssStartMiB = server.rssMiB()[0];
    const result = await loadFor(server.url, 'soak', options.soakSeconds, DATA_FILE);
    return { ...result, rssStartMiB, rssEndMiB: server.rssMiB()[0] };
  } finally {
    await server.stop();
  }
}
