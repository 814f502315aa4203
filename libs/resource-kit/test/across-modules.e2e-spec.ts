import { Injectable, Module } from '@nestjs/common';
import {
  Attribute,
  conflict,
  newRow,
  OnWrite,
  Resource,
  ResourceEntity,
  ResourceModule,
  ToOne,
  type WriteContext,
} from '@app/resource-kit';
import request from 'supertest';
import { FixtureApp, FIXTURE_TOKENS, startFixtureApp } from './fixture/fixture-app';

// SPEC 1.18: one module relates its resources to another's, and reacts to its writes, while
// the other knows nothing of it. `Shelf` below imports nothing of `Book` or `ShelfCatalogues`.

@Resource({
  type: 'shelves',
  access: { list: 'public', read: 'public', create: 'public', update: 'public', delete: 'admin' },
})
class Shelf extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 50 })
  label!: string;
}

@Module({ imports: [ResourceModule.forFeature(Shelf)] })
class ShelvesModule {}

const CATALOGUE = 'Catalogue';

// The module that holds the key declares the to-many side on the other's resource.
@Resource({ type: 'books', access: { list: 'public', read: 'public', create: 'public' } })
class Book extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 50 })
  title!: string;

  @ToOne(() => Shelf, {
    writable: 'create',
    inverse: { name: 'books', description: 'The books on the shelf.' },
  })
  shelfId!: string;
}

/** Every shelf starts with its catalogue; a shelf holding other books stays. */
@Injectable()
class ShelfCatalogues {
  readonly phases: string[] = [];

  @OnWrite(() => Shelf, 'created')
  async addCatalogue(shelf: Shelf, { manager }: WriteContext): Promise<void> {
    if (shelf.label === 'cursed') throw conflict('cursed shelves are refused by the catalogue');
    await manager.insert(Book, { ...newRow(), title: CATALOGUE, shelfId: shelf.id });
  }

  @OnWrite(() => Shelf, 'deleting')
  async keepBooks(shelf: Shelf, { manager }: WriteContext): Promise<void> {
    const books = await manager.getRepository(Book).findBy({ shelfId: shelf.id });
    if (books.some((book) => book.title !== CATALOGUE)) {
      throw conflict('shelves holding books cannot be deleted');
    }
    await manager.getRepository(Book).delete({ shelfId: shelf.id });
  }

  @OnWrite(() => Shelf, 'creating', 'updating', 'updated', 'deleted')
  note(shelf: Shelf, { manager }: WriteContext): void {
    this.phases.push(`${shelf.label} ${manager.queryRunner?.isTransactionActive ?? 'no runner'}`);
  }
}

@Module({ imports: [ResourceModule.forFeature(Book)], providers: [ShelfCatalogues] })
class BooksModule {}

describe('resources of one module related to, and reacting to, another\u2019s', () => {
  let fixture: FixtureApp;
  const http = () => request(fixture.http);
  const admin = `Bearer ${FIXTURE_TOKENS.admin}`;
  const shelf = async (label: string) =>
    (await http().post('/shelves').send({ data: { label } }).expect(201)).body.data as {
      id: string;
    };
  const titlesOn = async (id: string) =>
    ((await http().get(`/shelves/${id}/books`).expect(200)).body.data as { title: string }[])
      .map((book) => book.title)
      .sort();

  beforeAll(async () => {
    fixture = await startFixtureApp({}, { imports: [ShelvesModule, BooksModule] });
  });
  afterAll(() => fixture.close());

  it('serves a to-many side declared by the resource that holds the key: path, filter, document', async () => {
    const oak = await shelf('oak');
    await http()
      .post('/books')
      .send({ data: { title: 'Dune', shelf_id: oak.id } })
      .expect(201);
    expect(await titlesOn(oak.id)).toEqual([CATALOGUE, 'Dune']);
    const filtered = await http().get('/shelves?filter[books.title]=Dune').expect(200);
    expect((filtered.body.data as { id: string }[]).map((row) => row.id)).toEqual([oak.id]);
    const document = (await http().get('/openapi.json').expect(200)).body;
    expect(document.paths['/shelves/{id}/books'].get.description).toContain(
      'The books on the shelf.',
    );
  });

  it('runs a reaction to a create in its transaction: the next request reads what it wrote', async () => {
    const pine = await shelf('pine');
    expect(await titlesOn(pine.id)).toEqual([CATALOGUE]);
  });

  it('answers what a reaction throws, and keeps nothing of the write', async () => {
    const refused = await http()
      .post('/shelves')
      .send({ data: { label: 'cursed' } })
      .expect(409);
    expect(refused.body).toEqual({ error: ['cursed shelves are refused by the catalogue'] });
    const left = await http().get('/shelves?filter[label]=cursed').expect(200);
    expect(left.body.data).toEqual([]);
  });

  it('refuses a delete a reaction refuses, and lets one through that it cleans up for', async () => {
    const elm = await shelf('elm');
    await http()
      .post('/books')
      .send({ data: { title: 'Emma', shelf_id: elm.id } })
      .expect(201);
    const refused = await http().delete(`/shelves/${elm.id}`).set('Authorization', admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: ['shelves holding books cannot be deleted'] });
    expect(await titlesOn(elm.id)).toEqual([CATALOGUE, 'Emma']);

    const ash = await shelf('ash');
    await http().delete(`/shelves/${ash.id}`).set('Authorization', admin).expect(200);
    await http().get(`/shelves/${ash.id}`).expect(404);
    const books = await http().get(`/books?filter[shelf_id]=${ash.id}`).expect(200);
    expect(books.body.data).toEqual([]);
  });

  it('runs each phase inside the write\u2019s transaction, once per write', async () => {
    const reactions = fixture.app.get(ShelfCatalogues);
    reactions.phases.length = 0;
    const birch = await shelf('birch');
    await http()
      .patch(`/shelves/${birch.id}`)
      .send({ data: { label: 'beech' } })
      .expect(200);
    await http().delete(`/shelves/${birch.id}`).set('Authorization', admin).expect(200);
    expect(reactions.phases).toEqual(['birch true', 'beech true', 'beech true', 'beech true']);
  });
});
