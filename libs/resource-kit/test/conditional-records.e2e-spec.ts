import { Injectable } from '@nestjs/common';
import request from 'supertest';
import { newRow, WRITE_LISTENER, WriteEvent, WriteListener } from '@app/resource-kit';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';
import { AuditEntry } from './fixture/folder.entities';
import { Widget } from './fixture/widget.entity';

type Row = { id: string } & Record<string, unknown>;

/**
 * Audits a write only while an active widget watches its type: a widget whose description
 * is the type, or empty for every type (as a webhook endpoint wants an outbox entry).
 */
@Injectable()
class WatchedAudit implements WriteListener {
  onWrite({ action, definition, entity, context }: WriteEvent): void {
    if (definition.entity === AuditEntry || definition.entity === Widget) return;
    context.record(
      AuditEntry,
      { ...newRow(), action, subjectId: (entity as { id: string }).id },
      { exists: Widget, where: { active: true, description: [null, definition.type] } },
    );
  }
}

// `context.record(entity, row, onlyIf)`: the row is inserted by the write's own statement, and
// only while a matching row exists.
describe('records made only while a matching row exists', () => {
  let fixture: FixtureApp;
  const send = (method: 'post' | 'patch', path: string, data: object) =>
    request(fixture.http)
      [method](path)
      .set('Authorization', `Bearer ${FIXTURE_TOKENS.tenantA}`)
      .send({ data });
  const audited = async () =>
    (
      (
        await request(fixture.http)
          .get('/audit_entries?limit=100&order=created_at')
          .set('Authorization', `Bearer ${FIXTURE_TOKENS.tenantA}`)
          .expect(200)
      ).body.data as Row[]
    ).map((entry) => entry.subject_id);
  const created = async (path: string, data: object) =>
    ((await send('post', path, data).expect(201)).body.data as Row).id;

  beforeAll(async () => {
    fixture = await startFixtureApp(
      {},
      { providers: [{ provide: WRITE_LISTENER, useClass: WatchedAudit }] },
    );
  });
  afterAll(() => fixture.close());

  it('inserts the row only while a row matches every member, a null in a list matching an empty column', async () => {
    await created('/folders', { code: 'unwatched' });
    const widget = await created('/widgets', { name: 'watcher', quantity: 1, active: false });
    await created('/folders', { code: 'inactive' });
    await send('patch', `/widgets/${widget}`, { active: true, description: 'documents' }).expect(
      200,
    );
    const otherType = await created('/folders', { code: 'other-type' });
    const document = await created('/documents', { folder_id: otherType, title: 'Plan' });
    await send('patch', `/widgets/${widget}`, { description: null }).expect(200);
    const everyType = await created('/folders', { code: 'every-type' });

    expect(await audited()).toEqual([document, everyType]);
  });

  it('records nothing for a write that fails, though a row matches', async () => {
    const before = await audited();
    await send('post', '/folders', { code: 'every-type' }).expect(409);
    expect(await audited()).toEqual(before);
  });
});
