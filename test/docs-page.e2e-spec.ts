import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ResourceRegistry } from '@app/resource-kit';
import { createShopClient } from '../clients/typescript';
import { chromiumInstalled, HeadlessChromium, launchChromium } from './support/chromium';
import { ADMIN_TOKEN } from './support/shop-client';
import { listenOnFreePort, startTestApp, TestApp } from './support/test-app';

// Screenshots for CI to keep: artifacts/ at the repository root (git-ignored).
const ARTIFACTS = join(__dirname, '..', 'artifacts');
const ENGINE = process.env.TEST_DATABASE ?? 'sqlite';
// Runs in the page before its own scripts: every load the page's policy blocks is reported.
// Launching a browser and driving the page take longer than a request does.
const BROWSER_MS = 120_000;
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) =>
  reportViolation(event.effectiveDirective + ' blocked ' + event.blockedURI));`;

// /docs as a person uses it: in a real browser, against the real service on a real port.
(chromiumInstalled() ? describe : describe.skip)('the /docs page in headless Chromium', () => {
  let service: TestApp;
  let origin: string;
  let chromium: HeadlessChromium;
  let page: Page;
  const requested: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    service = await startTestApp({ API_BASE_PATH: '/api' });
    origin = await listenOnFreePort(service);
    chromium = await launchChromium();
    page = await chromium.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Below the test's own limit, so that a missing element is named in the failure.
    page.setDefaultTimeout(30_000);
    page.on('request', (request) => requested.push(request.url()));
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(REPORT_VIOLATIONS);
    await page.goto(`${origin}/docs`);
  }, BROWSER_MS);
  afterAll(async () => {
    await chromium?.close();
    await service?.close();
  });

  it(
    'shows every declared resource',
    async () => {
      const declared = service.app
        .get(ResourceRegistry)
        .definitions()
        .map((definition) => definition.type);
      const shown = page.locator('.opblock-tag');
      await shown.first().waitFor();
      const tags = await Promise.all(
        (await shown.all()).map((tag) => tag.getAttribute('data-tag')),
      );
      expect(tags.sort()).toEqual(declared.sort());
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `docs-page-${ENGINE}.png`) });
    },
    BROWSER_MS,
  );

  it(
    'authorizes with a bearer token and executes real requests from the page',
    async () => {
      await authorize(page, ADMIN_TOKEN);

      const created = await tryItOut(page, 'products', 'create_products', {
        body: { data: { name: 'Teapot from the docs page', price_cents: 1250, stock: 3 } },
      });
      expect(created.status).toBe('201');
      expect(created.json).toMatchObject({ data: { type: 'products', stock: 3 } });

      // A private collection: the admin sees every write, the one just made through the page too.
      const events = await tryItOut(page, 'events', 'list_events');
      expect(events.status).toBe('200');
      expect(events.json).toMatchObject({
        data: expect.arrayContaining([
          expect.objectContaining({
            action: 'created',
            subject: { type: 'products', id: (created.json as { data: { id: string } }).data.id },
          }),
        ]) as unknown,
      });
      await page
        .locator('#operations-events-list_events')
        .screenshot({ path: join(ARTIFACTS, `docs-try-it-out-${ENGINE}.png`) });

      // The typed client sees what the page made.
      const { data } = await createShopClient(`${origin}/api`).GET('/products');
      expect(data!.data.map((product) => product.name)).toEqual(['Teapot from the docs page']);
    },
    BROWSER_MS,
  );

  it('loads nothing from outside the service, and its policy blocks nothing it needs', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(violations).toEqual([]);
  });
});

// Swagger UI's Authorize dialog, bearer scheme.
async function authorize(page: Page, token: string): Promise<void> {
  await page.locator('.auth-wrapper').getByRole('button', { name: 'Authorize' }).click();
  const dialog = page.locator('.modal-ux');
  await dialog.getByLabel('auth-bearer-value').fill(token);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/**
 * Opens an operation, "Try it out", the body typed in, "Execute": the answer as the page shows
 * it. Parameters stay as the page offers them, so their defaults must make a valid request.
 */
async function tryItOut(
  page: Page,
  tag: string,
  operationId: string,
  { body }: { body?: object } = {},
): Promise<{ status: string | null; json: unknown }> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary-control').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  if (body) await operation.locator('.body-param__text').fill(JSON.stringify(body));
  await operation.getByRole('button', { name: 'Execute' }).click();
  return answerIn(operation);
}

async function answerIn(operation: Locator): Promise<{ status: string | null; json: unknown }> {
  const answer = operation.locator('.live-responses-table .response').first();
  await answer.waitFor();
  const status = await answer.locator('.response-col_status').textContent();
  const text = await answer.locator('.response-col_description pre').first().textContent();
  return { status: status?.trim() ?? null, json: JSON.parse(text ?? 'null') };
}
