import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startService } from '../support/service-process';
import { createTestDatabase } from '../support/test-database';
import {
  ADMIN_TOKEN,
  CROSS_TENANT_TOKEN,
  OTHER_TENANT_ADMIN_TOKEN,
  TENANT_TOKENS,
} from '../support/shop-client';
import { WebhookReceiver } from '../support/webhook-receiver';
import { developerEnvironment, repositoryCopy } from '../support/repository-copy';

// The most common customer-facing shape: public to read, written by its author, with an
// indexed and a searchable attribute. Named so that no resource of the shop's own (a team's
// `reviews`, say) is in its way.
const RESOURCE = [
  'probe_reviews',
  '--domain',
  'ordering',
  '--attributes',
  'rating:integer:1..5,body:string:2000',
  '--to-one',
  'product',
  '--access',
  'authored',
  '--indexed',
  'rating',
  '--searchable',
  'body',
];
// Owned through its parent (SPEC 1.15): a reply is its review's author's, and only that author
// may reply, though everyone reads the review (the generated spec proves the 400).
const THROUGH_PARENT = [
  'probe_review_replies',
  '--domain',
  'ordering',
  '--attributes',
  'body:string:500',
  '--to-one',
  'probe_review',
  '--owned-through',
  'probe_review',
];
// Scoped to the caller's tenant (SPEC 1.15), for administrators of each tenant.
const TENANT_SCOPED = [
  'probe_notes',
  '--domain',
  'catalog',
  '--attributes',
  'body:string:500',
  '--tenant',
];
// The machine's NATS server with JetStream (test/published-events.e2e-spec.ts).
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
// Where no database server listens: the generator needs none.
const NO_SERVER = 'postgres://postgres@127.0.0.1:1/none';

// The generator runs in a copy of the repository, and checks both engines itself.
describe('npm run generate:resource', () => {
  let copy: string;
  // Generating, building, linting and two jest runs take minutes on a busy machine.
  jest.setTimeout(15 * 60_000);

  // As a developer runs it: none of this jest run's own variables.
  const env = developerEnvironment();
  const run = (command: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
    promisify(execFile)(command, args, {
      cwd: copy,
      env: { ...env, ...extra },
      maxBuffer: 64 * 1024 * 1024,
    });
  const generate = (args: string[]) =>
    run('npm', ['run', 'generate:resource', '--', ...args], {
      DATABASE_URL: NO_SERVER,
      TEST_DATABASE_URL: NO_SERVER,
    });

  beforeAll(async () => {
    copy = repositoryCopy('generator-');
    await generate(RESOURCE);
    await generate(THROUGH_PARENT);
    await generate(TENANT_SCOPED);
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('writes code that typechecks and lints as it is, each module in the domain named', async () => {
    await run('npm', ['run', 'typecheck']);
    // The domains' boundaries hold with the new modules in them (SPEC 1.18).
    await run('npm', ['run', 'lint:domains']);
    const ordering = readFileSync(join(copy, 'apps/api/src/domains/ordering.domain.ts'), 'utf8');
    expect(ordering).toContain("'modules/probe-reviews'");
    expect(ordering).toContain("'modules/probe-review-replies'");
    const catalog = readFileSync(join(copy, 'apps/api/src/domains/catalog.domain.ts'), 'utf8');
    expect(catalog).toContain("'modules/probe-notes'");
    // Its PostgreSQL migrations take no lock live traffic would wait for (SPEC 1.19).
    const { stdout } = await run('npm', ['run', '--silent', 'lint:migrations']);
    expect(stdout).toMatch(/[1-9]\d* migration\(s\) linted, no problem/);
    // The rest of the copy is the repository's own code, which its own lint step checks.
    // Migrations are generated SQL, which eslint's configuration leaves out.
    const written = [
      'apps/api/src/app.module.ts',
      'apps/api/src/domains',
      'apps/api/src/modules/probe-reviews',
      'apps/api/src/modules/probe-review-replies',
      'apps/api/src/modules/probe-notes',
      'test/probe-reviews.e2e-spec.ts',
      'test/probe-review-replies.e2e-spec.ts',
      'test/probe-notes.e2e-spec.ts',
    ];
    await run('npx', ['eslint', ...written]);
    await run('npx', ['prettier', '--check', ...written]);
  });

  // The OpenAPI spec checks that every member is described: a new resource must keep it true.
  it('writes a spec and migrations that pass on both engines, without breaking the suite', async () => {
    const jest = [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      join('node_modules', 'jest', 'bin', 'jest.js'),
      '--testPathPatterns',
      'test/(probe-reviews|probe-review-replies|probe-notes|migrations|declarations|openapi)\\.e2e-spec\\.ts|clients/typescript/client\\.spec\\.ts|domains/modules-document\\.spec\\.ts',
      '--maxWorkers=1',
    ];
    const { stderr } = await run(process.execPath, jest, {
      TEST_PROJECTS: 'unit,e2e:sqlite,e2e:postgres',
    });
    // The committed client's and docs/modules.md's checks among them: the generator
    // regenerated both.
    expect(stderr).toMatch(/Test Suites: 14 passed, 14 total/);
  });

  it('adds resources that contract:check reports as additive and /openapi.json describes', async () => {
    const { stdout } = await run('npm', ['run', 'contract:check']);
    expect(stdout).toMatch(
      /Contract check passed: .*additive changes.*; new resources: probe_notes, probe_review_replies, probe_reviews\./,
    );
    const folder = mkdtempSync(join(tmpdir(), 'generator-db-'));
    const main = join(copy, 'dist', 'apps', 'api', 'src', 'main.js');
    const env = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), SQLITE_PATH: join(folder, 'db') };
    const service = startService(env, [process.execPath, main]);
    try {
      const port = await service.listening();
      const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      const document = (await response.json()) as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/probe_reviews',
          '/probe_reviews/{id}',
          '/probe_reviews/{id}/product',
          '/probe_review_replies/{id}/probe_review',
          '/probe_notes/{id}',
        ]),
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exit();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  // SPEC 1.15: a tenant's events go to its endpoints and its NATS subjects alone, on both
  // engines; the generated spec proves GET /events.
  it.each(['sqlite', 'postgres'])(
    "keeps a tenant's events to its endpoints and its subjects (%s)",
    async (engine) => {
      const database = await createTestDatabase(engine);
      const name = randomBytes(5).toString('hex');
      const [stream, prefix] = [`E2E_${name}`, `e2e.${name}.events`];
      const nats = await connect({ servers: NATS_URL });
      const receivers = [new WebhookReceiver(), new WebhookReceiver()];
      const service = startService(
        {
          NODE_ENV: 'test',
          JWT_SECRET: 'x'.repeat(32),
          ...database.env,
          STATIC_TOKENS: TENANT_TOKENS,
          NATS_URL,
          NATS_STREAM: stream,
          NATS_SUBJECT_PREFIX: prefix,
        },
        [process.execPath, join(copy, 'dist', 'apps', 'api', 'src', 'main.js')],
      );
      try {
        const origin = `http://127.0.0.1:${await service.listening()}`;
        const post = async (token: string, path: string, data: object) => {
          const response = await fetch(`${origin}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ data }),
          });
          expect(response.status).toBe(201);
          return ((await response.json()) as { data: Record<string, string> }).data;
        };
        const [acme, globex] = [ADMIN_TOKEN, OTHER_TENANT_ADMIN_TOKEN];
        const endpoints: Record<string, string>[] = [];
        for (const [index, token] of [acme, globex].entries()) {
          const url = await receivers[index].listen();
          endpoints.push(await post(token, '/webhook_endpoints', { url }));
          receivers[index].useSecret(endpoints[index].secret);
        }
        const notes = [
          await post(acme, '/probe_notes', { body: 'Of acme' }),
          await post(globex, '/probe_notes', { body: 'Of globex' }),
        ];
        const product = await post(CROSS_TENANT_TOKEN, '/products', {
          name: 'Shared',
          price_cents: 100,
          stock: 1,
        });

        // Each endpoint: its own creation and its tenant's note (events of its tenant) and the
        // shop's product (of none); nothing of the other tenant's.
        for (const [index, receiver] of receivers.entries()) {
          await receiver.waitFor(3);
          await sleep(500);
          expect(receiver.received.map(({ event }) => event.subject.id).sort()).toEqual(
            [endpoints[index].id, notes[index].id, product.id].sort(),
          );
        }
        const manager = await jetstreamManager(nats);
        const lastOn = async (subject: string) => {
          for (let tries = 0; tries < 100; tries++) {
            const message = await manager.streams.getMessage(stream, { last_by_subj: subject });
            if (message) return message.json<{ data: { subject: { id: string } } }>().data;
            await sleep(100);
          }
          return undefined;
        };
        for (const [index, tenant] of ['acme', 'globex'].entries()) {
          const published = await lastOn(`${prefix}.tenants.${tenant}.probe_notes.created`);
          expect(published?.subject.id).toBe(notes[index].id);
        }
        expect((await lastOn(`${prefix}.products.created`))?.subject.id).toBe(product.id);
        const info = await manager.streams.info(stream, { subjects_filter: '>' });
        expect(Object.keys(info.state.subjects ?? {}).sort()).toEqual(
          [
            `${prefix}.products.created`,
            `${prefix}.tenants.acme.probe_notes.created`,
            `${prefix}.tenants.globex.probe_notes.created`,
            `${prefix}.tenants.acme.webhook_endpoints.created`,
            `${prefix}.tenants.globex.webhook_endpoints.created`,
          ].sort(),
        );
      } finally {
        service.child.kill('SIGTERM');
        await service.exit();
        for (const receiver of receivers) await receiver.close();
        const manager = await jetstreamManager(nats);
        await manager.streams.delete(stream).catch(() => false);
        await nats.drain();
        await database.drop();
      }
    },
  );

  it('leaves the tree as it was when a step fails, and says how to go on', async () => {
    // The last step breaks, after the resource, its spec and both migrations are written.
    writeFileSync(join(copy, 'scripts', 'client-generate.mjs'), "throw new Error('broken');\n");
    await run('git', ['init', '--quiet']);
    await run('git', ['add', '--all']);
    const author = ['-c', 'user.name=test', '-c', 'user.email=test@example.com'];
    await run('git', [...author, 'commit', '--quiet', '--message', 'before']);
    const failed = generate([
      'probe_wishes',
      '--domain',
      'ordering',
      '--attributes',
      'note:string:200',
      '--access',
      'owned',
    ]);
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /generate:resource: the typed client failed \(see above\)\. Nothing is left of this run.*run the same command again/,
      ),
    });
    const { stdout } = await run('git', ['status', '--porcelain']);
    expect(stdout).toBe('');
  });
});
