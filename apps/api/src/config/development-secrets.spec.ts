import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentSecrets } from './development-secrets';

describe('developmentSecrets', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'secrets-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('makes the secrets on the first start and keeps them for the next', () => {
    const path = join(folder, 'data', 'development-secrets.json');
    const first = developmentSecrets(path);
    expect(first).toEqual({
      jwtSecret: expect.stringMatching(/^[\w-]{43}$/),
      adminToken: expect.stringMatching(/^[\w-]{43}$/),
      created: true,
    });
    // Readable by its owner alone.
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(developmentSecrets(path)).toEqual({ ...first, created: false });
  });

  it('refuses a file it did not write, saying how to start afresh', () => {
    const path = join(folder, 'development-secrets.json');
    writeFileSync(path, '{"jwtSecret": 1}');
    expect(() => developmentSecrets(path)).toThrow(
      expect.objectContaining({
        problems: [`${path} is not as development wrote it: delete it to start afresh`],
      }),
    );
  });
});
