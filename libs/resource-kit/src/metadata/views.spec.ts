import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { readResourceDefinition } from './definition.reader';
import { ownerLevelProblem, viewFor } from './views';

const PRIVATE = { list: 'authenticated', read: 'authenticated', create: 'authenticated' } as const;

@Resource({ type: 'diaries', owner: 'writerId', access: PRIVATE })
class Diary extends ResourceEntity {
  @Attribute({ type: 'string', writable: false }) writerId!: string;
  @Attribute({ type: 'string', readableBy: 'owner', writableBy: 'owner' }) secret!: string;
  @Attribute({ type: 'string', readableBy: 'admin' }) review!: string;
}

@Resource({ type: 'posters', owner: 'writerId', access: { ...PRIVATE, read: 'public' } })
class Poster extends ResourceEntity {
  @Attribute({ type: 'string', writable: false }) writerId!: string;
  @Attribute({ type: 'string', readableBy: 'owner' }) secret!: string;
}

@Resource({ type: 'lines', owner: 'diaryId.writerId', access: PRIVATE })
class Line extends ResourceEntity {
  @Attribute({ type: 'string' }) diaryId!: string;
  @Attribute({ type: 'string', readableBy: 'owner' }) secret!: string;
}

const names = (level: Parameters<typeof viewFor>[1]) =>
  viewFor(readResourceDefinition(Diary), level).attributes.map((a) => a.name);

describe('views per caller level (SPEC 1.16)', () => {
  it('draws each level with the members it may read, the owner between signed-in and admin', () => {
    const stamps = ['created_at', 'updated_at'];
    expect(names('authenticated')).toEqual([...stamps, 'writer_id']);
    expect(names('owner')).toEqual([...stamps, 'writer_id', 'secret']);
    expect(names('admin')).toEqual([...stamps, 'writer_id', 'secret', 'review']);
  });

  it('accepts the owner level only where every row a caller reads is their own', () => {
    expect(ownerLevelProblem(readResourceDefinition(Diary))).toBeUndefined();
    expect(ownerLevelProblem(readResourceDefinition(Poster))).toBe(
      "secret: the owner level needs an owner property of posters itself and reads of the owner's rows only (no public read or list)",
    );
    expect(ownerLevelProblem(readResourceDefinition(Line))).toMatch(/^secret: the owner level/);
  });
});
