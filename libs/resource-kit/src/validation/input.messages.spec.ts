import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { readResourceDefinition } from '../metadata/definition.reader';
import { inputProblems } from './input.messages';
import type { InputMode } from './input.schema';
import { inputValidatorOf } from './input.validator';

@Resource({ type: 'tools', access: { create: 'public', update: 'public' } })
class Tool extends ResourceEntity {
  @Attribute({ type: 'string', minLength: 3, maxLength: 5 }) name!: string;
  @Attribute({ type: 'integer', min: 1 }) size!: number;
  @Attribute({ type: 'string', writable: 'create', optional: true }) code!: string;
}

const tools = readResourceDefinition(Tool);
const problems = (body: unknown, mode: InputMode = 'create', pathId?: string) => {
  const validate = inputValidatorOf(tools, mode);
  validate(body);
  return inputProblems(validate.errors ?? [], body, tools, mode, pathId);
};

describe('inputProblems', () => {
  it('has nothing to say of a valid body', () => {
    expect(problems({ data: { name: 'saw', size: 2 } })).toEqual([]);
  });

  it('lists the top level first, then type and id, members not allowed, attributes', () => {
    expect(
      problems({ extra: 1, data: { size: 0, nope: 1, id: 'x', type: 'saws', created_at: 1 } }),
    ).toEqual([
      'extra is not allowed at the top level; only "data" is',
      'data.type must be "tools"',
      'data.id must not be given; the service assigns ids',
      'data.nope is not an attribute of tools',
      'data.created_at is read-only',
      'data.name is required',
      'data.size must be at least 1',
    ]);
  });

  it('names a member once, by the first rule it breaks', () => {
    expect(problems({ data: { name: 'a\u0000', size: 1 } })).toEqual([
      'data.name must not contain U+0000',
    ]);
    expect(problems({ data: { name: 'toolong\ud800', size: 1 } })).toEqual([
      'data.name must be well-formed Unicode text',
    ]);
  });

  it('says a PATCH id differs from the path once, whatever its type', () => {
    expect(problems({ data: { id: 7, type: 1 } }, 'patch', 't1')).toEqual([
      'data.type must be "tools"',
      'data.id must equal the id in the path',
    ]);
    expect(problems({ data: { id: 't1', code: 'c' } }, 'patch', 't1')).toEqual([
      'data.code can be set only on create',
    ]);
  });

  it('stops at the body when it is not an object with an object data', () => {
    expect(problems('text')).toEqual(['the body must be a JSON object with a "data" member']);
    expect(problems({ data: 'text', other: 1 })).toEqual([
      'other is not allowed at the top level; only "data" is',
      'data must be an object',
    ]);
  });
});
