import { KitError } from '../errors/kit.error';
import { CursorCodec } from './cursor.codec';

const NOT_OURS = 'cursor is not a cursor this service issued';
const OTHER_QUERY =
  'cursor belongs to another collection, caller, filter or order; start again without it';
const BINDING = '[[["filter[kind]","small"]],["-price"]]';

const codec = new CursorCodec('server-secret');

function problemsOf(decode: () => unknown): readonly string[] {
  try {
    decode();
  } catch (error) {
    if (!(error instanceof KitError)) throw error;
    expect(error.code).toBe('invalid_input');
    return error.messages;
  }
  throw new Error('expected the cursor to be refused');
}

// Replaces one character with a different one of the base64url alphabet.
const flip = (text: string, index: number) =>
  text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

describe('CursorCodec', () => {
  it('round-trips the order keys of the last row', () => {
    const keys = ['2024-01-05T10:20:30.123Z', 'a0b1c2', 42, null, 'ünïcode ✓'];
    expect(codec.decode(codec.encode(keys, BINDING), BINDING)).toEqual(keys);
  });

  it('round-trips through a different instance with the same secret', () => {
    const cursor = codec.encode(['k'], BINDING);
    expect(new CursorCodec('server-secret').decode(cursor, BINDING)).toEqual(['k']);
  });

  it('issues URL-safe, opaque text of two parts', () => {
    const cursor = codec.encode(['x/y+z', 'id'], BINDING);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('x/y+z');
  });

  it('rejects a cursor whose payload was changed', () => {
    const cursor = codec.encode(['2024-01-05T10:20:30.123Z', 'id-1'], BINDING);
    const [payload, signature] = cursor.split('.');
    expect(problemsOf(() => codec.decode(`${flip(payload, 3)}.${signature}`, BINDING))).toEqual([
      NOT_OURS,
    ]);
  });

  it('rejects a payload re-encoded with other keys but the old signature', () => {
    const [, signature] = codec.encode(['id-1'], BINDING).split('.');
    const forged = Buffer.from(JSON.stringify({ k: ['id-2'], b: BINDING })).toString('base64url');
    expect(problemsOf(() => codec.decode(`${forged}.${signature}`, BINDING))).toEqual([NOT_OURS]);
  });

  it('rejects a cursor whose signature was changed, truncated or extended', () => {
    const cursor = codec.encode(['id-1'], BINDING);
    const [payload, signature] = cursor.split('.');
    for (const bad of [flip(signature, 0), signature.slice(0, -1), `${signature}A`]) {
      expect(problemsOf(() => codec.decode(`${payload}.${bad}`, BINDING))).toEqual([NOT_OURS]);
    }
  });

  it('rejects a cursor signed with another secret', () => {
    const foreign = new CursorCodec('another-secret').encode(['id-1'], BINDING);
    expect(problemsOf(() => codec.decode(foreign, BINDING))).toEqual([NOT_OURS]);
  });

  it('rejects a genuine cursor used with another filter or order, with its own message', () => {
    const cursor = codec.encode(['id-1'], BINDING);
    expect(problemsOf(() => codec.decode(cursor, '[[],[]]'))).toEqual([OTHER_QUERY]);
  });

  it.each([
    ['the empty string', ''],
    ['a single dot', '.'],
    ['no signature', 'eyJrIjpbXX0'],
    ['an empty payload', '.abc'],
    ['an empty signature', 'abc.'],
    ['three parts', 'a.b.c'],
    ['random text', 'not a cursor at all'],
    ['a JSON text', '{"k":[],"b":""}'],
  ])('rejects %s', (_case, garbage) => {
    expect(problemsOf(() => codec.decode(garbage, BINDING))).toEqual([NOT_OURS]);
  });

  it('rejects a genuine cursor with a third part appended', () => {
    const cursor = codec.encode(['id-1'], BINDING);
    expect(problemsOf(() => codec.decode(`${cursor}.x`, BINDING))).toEqual([NOT_OURS]);
  });
});
