import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.6: `contains` compares in Unicode's lower case on both engines, for every script.
describe('contains, in every script', () => {
  let service: TestApp;
  const NAMES = [
    'Äpfel-Saft',
    'Crème brûlée',
    'Ørsted Öl',
    'Łódź Kiełbasa',
    'Σοφία Tea',
    'Apple juice',
    'Straße Kaffee',
  ];

  beforeAll(async () => {
    service = await startTestApp();
    const shop = new ShopClient(service.http).as(ADMIN_TOKEN);
    for (const name of NAMES) {
      await shop.post('/products', { name, price_cents: 100, stock: 1 }).expect(201);
    }
  });
  afterAll(() => service.close());

  const found = async (text: string) => {
    const query = `filter[name][contains]=${encodeURIComponent(text)}`;
    const { body } = await request(service.http).get(`/products?${query}`).expect(200);
    return (body.data as { name: string }[]).map((product) => product.name);
  };

  it.each([
    ['Äpfel', 'äpfel', 'ÄPFEL', 'Äpfel-Saft'],
    ['Crème', 'crème', 'CRÈME', 'Crème brûlée'],
    ['Ørsted', 'ørsted', 'ØRSTED', 'Ørsted Öl'],
    ['Łódź', 'łódź', 'ŁÓDŹ', 'Łódź Kiełbasa'],
    ['Σοφία', 'σοφία', 'ΣΟΦΊΑ', 'Σοφία Tea'],
    ['Apple', 'apple', 'APPLE', 'Apple juice'],
  ])('%s, %s and %s find the same product', async (asStored, lower, upper, name) => {
    for (const text of [asStored, lower, upper])
      expect([text, await found(text)]).toEqual([text, [name]]);
  });

  // A page looks at the first rows in the order, then, if too few of them match, at the
  // search index: walked a page at a time, the matches are those of one page, in order.
  it('pages through the matches of a substring as one page holds them', async () => {
    const all = await found('e');
    expect(all).toHaveLength(NAMES.length);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const { body } = await request(service.http)
        .get(`/products?limit=2&filter[name][contains]=E${after}`)
        .expect(200);
      walked.push(...(body.data as { name: string }[]).map((product) => product.name));
      cursor = body.cursor as string | null;
    } while (cursor);
    expect(walked).toEqual(all);
  });

  it('folds letter by letter, without expanding: ß is not ss', async () => {
    expect(await found('STRAßE')).toEqual(['Straße Kaffee']);
    expect(await found('strasse')).toEqual([]);
  });

  it('takes a letter only as itself: ö does not find o', async () => {
    expect(await found('öl')).toEqual(['Ørsted Öl']);
    expect(await found('apfel')).toEqual([]);
  });
});
