import { Client, type CustomTypesConfig, type QueryResult, types } from 'pg';
import { statementOf } from '../src/persistence/pg-statements';
import { TEST_DATABASE_URL } from '../../../test/support/test-database';

// Named statements need a direct connection: the PostgreSQL project only.
const runs = process.env.TEST_DATABASE === 'postgres' && !process.env.TEST_DATABASE_POOLER;
const onPostgres = runs ? describe : describe.skip;

const INT4: number = types.builtins.INT4;
const SQL = 'SELECT $1::int AS n, $2::text AS label, now() AS at';
const NAME = 'kit_spec_remembered_columns';

type TextParser = (text: string) => unknown;

// A connection whose integers read as `tag:digits`, to tell its parsers from another's.
function taggedTypes(tag: string): CustomTypesConfig {
  const parserOf = (oid: number, format?: string): TextParser =>
    oid === INT4
      ? (text) => `${tag}:${text}`
      : (types.getTypeParser(oid, format as 'text') as TextParser);
  return { getTypeParser: parserOf as CustomTypesConfig['getTypeParser'] };
}

async function connect(tag: string): Promise<Client> {
  const client = new Client({ connectionString: TEST_DATABASE_URL, types: taggedTypes(tag) });
  await client.connect();
  return client;
}

function run(client: Client, values: unknown[]): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(
      statementOf(SQL, values, NAME, (error, result) => (error ? reject(error) : resolve(result))),
    );
  });
}

onPostgres('named statements remember their columns per connection', () => {
  let first: Client;
  let second: Client;

  beforeAll(async () => {
    [first, second] = await Promise.all([connect('first'), connect('second')]);
  });
  afterAll(() => Promise.all([first?.end(), second?.end()]));

  it('reads every execution of a named statement with its connection’s parsers', async () => {
    const once = await run(first, [1, 'one']);
    const again = await run(first, [2, null]);
    // The kit's rows are arrays of their columns.
    expect(once.rows).toEqual([['first:1', 'one', expect.any(Date)]]);
    expect(again.rows).toEqual([['first:2', null, expect.any(Date)]]);
    expect(again.fields.map((field) => field.name)).toEqual(['n', 'label', 'at']);
  });

  it('keeps another connection’s columns and parsers apart under the same name', async () => {
    await run(first, [3, 'three']);
    const other = await run(second, [4, 'four']);
    const back = await run(first, [5, 'five']);
    expect(other.rows).toEqual([['second:4', 'four', expect.any(Date)]]);
    expect(back.rows).toEqual([['first:5', 'five', expect.any(Date)]]);
  });
});
