import type { FieldType } from '../../base/model/metadata.entity.js';
import { thrown, wire } from '../../../test/utils/fakes.js';
import { fieldRow } from '../../../test/utils/fakes/metadata.js';
import { MetadataErrors } from './metadata.errors.js';
import {
  afterChange,
  type FieldRules,
  MAX_FIELDS_PER_PUT,
  MAX_VALUES_PER_FIELD,
  planChanges,
  valueProblem,
} from './metadata-values.js';

/** A field of the given type named f, taking one value unless told. */
const field = (field_type: FieldType, over: Partial<FieldRules> = {}): FieldRules =>
  fieldRow('f', { field_type, multi: false, ...over });

const plan = (fields: FieldRules[], body: Record<string, unknown>) =>
  planChanges(new Map(fields.map((f) => [f.name, f])), body, { mode: 'overwrite', unknown: 'is unknown' });
const refused = (fn: () => unknown) => wire(thrown(fn));

describe('metadata values: the rules of a field type', () => {
  it.each([
    ['string', 'x', null],
    ['string', 1, 'each value must be a string (field_type string)'],
    ['text', true, 'each value must be a string (field_type text)'],
    ['integer', 3, null],
    ['integer', 3.5, 'each value must be an integer'],
    ['integer', '3', 'each value must be a number (field_type integer)'],
    ['integer', 2 ** 60, 'each value must be an integer'],
    ['float', 3.5, null],
    ['boolean', false, null],
    ['boolean', 'true', 'each value must be true or false'],
    ['date', '2024-02-29', null],
    ['date', '2023-02-29', 'each value must be a date (YYYY-MM-DD)'],
    ['date', '2024-2-1', 'each value must be a date (YYYY-MM-DD)'],
    ['datetime', '2026-11-29T03:00:00Z', null],
    ['datetime', '2026-11-29T03:00:00.123+01:00', null],
    ['datetime', '2026-11-29T03:00:00', 'each value must be an ISO 8601 date-time with a time zone'],
    ['url', 'https://example.com/a', null],
    ['url', 'javascript:alert(1)', 'each value must be an http or https URL'],
    ['email', 'a@b.example', null],
    ['email', 'not an email', 'each value must be an email address'],
    ['tag_cloud', 'boats', null],
  ] as const)('%s: %j → %j', (type, value, problem) => {
    expect(valueProblem(field(type), value)).toBe(problem);
  });

  it('integer and float stay within min_value and max_value', () => {
    const f = field('float', { min_value: 0, max_value: 1 });
    expect(valueProblem(f, 0)).toBeNull();
    expect(valueProblem(f, 1.01)).toBe('each value must be <= 1');
    expect(valueProblem(f, -0.5)).toBe('each value must be >= 0');
  });

  it('drop_down takes the value of an option, any string without options', () => {
    const f = field('drop_down', { options: [{ label: 'Red', value: 'red' }] });
    expect(valueProblem(f, 'red')).toBeNull();
    expect(valueProblem(f, 'Red')).toBe('each value must be the value of one of the field’s options');
    expect(valueProblem(field('drop_down'), 'anything')).toBeNull();
  });
});

describe('metadata values: planChanges', () => {
  const tags = field('tag_cloud', { name: 'tags', multi: true });
  const count = field('integer', { name: 'count' });
  const locked = field('string', { name: 'locked', read_only: true });

  it('names every unknown, read-only, malformed or mistyped field at once', () => {
    expect(
      refused(() =>
        plan([tags, count, locked], {
          nope: { field_values: [] },
          locked: { field_values: [{ value: 'x' }] },
          count: { field_values: [{ value: 'x' }] },
          tags: { field_values: 'x' },
          ['n'.repeat(300)]: { field_values: [] },
        }),
      ),
    ).toEqual(
      wire(
        MetadataErrors.INVALID({
          'metadata_values.nope': 'is unknown',
          'metadata_values.locked': 'is read-only',
          'metadata_values.count': 'each value must be a number (field_type integer)',
          'metadata_values.tags': 'must be {field_values: [{value}]}',
          [`metadata_values.${'n'.repeat(100)}`]: 'is unknown',
        }),
      ),
    );
  });

  it('each field’s mode wins over the request’s; an unknown mode is a 400', () => {
    const out = plan([tags, count], {
      tags: { mode: 'append', field_values: [{ value: 'a' }] },
      count: { field_values: [{ value: 1 }] },
    });
    expect(out.get('tags')).toEqual({ mode: 'append', values: [{ value: 'a' }] });
    expect(out.get('count')).toEqual({ mode: 'overwrite', values: [{ value: 1 }] });
    expect(refused(() => plan([tags], { tags: { mode: 'merge', field_values: [] } }))).toEqual(
      wire(MetadataErrors.INVALID({ 'metadata_values.tags': 'mode must be overwrite or append' })),
    );
  });

  it('at most MAX_VALUES_PER_FIELD values a field and MAX_FIELDS_PER_PUT fields', () => {
    const many = Array.from({ length: MAX_VALUES_PER_FIELD + 1 }, (_, i) => ({ value: `v${i}` }));
    expect(refused(() => plan([tags], { tags: { field_values: many } }))).toEqual(
      wire(
        MetadataErrors.INVALID({
          'metadata_values.tags': `must have at most ${MAX_VALUES_PER_FIELD} values`,
        }),
      ),
    );
    const wide = Object.fromEntries(Array.from({ length: MAX_FIELDS_PER_PUT + 1 }, (_, i) => [`f${i}`, {}]));
    expect(refused(() => plan([tags], wide))).toEqual(
      wire(MetadataErrors.INVALID({ metadata_values: `must name at most ${MAX_FIELDS_PER_PUT} fields` })),
    );
  });
});

describe('metadata values: afterChange', () => {
  const existing = [{ value: 'a' }];
  it('overwrite replaces, append adds', () => {
    const multi = field('string', { multi: true });
    expect(afterChange(multi, { mode: 'overwrite', values: [{ value: 'b' }] }, existing)).toEqual({
      values: [{ value: 'b' }],
      problem: null,
    });
    expect(afterChange(multi, { mode: 'append', values: [{ value: 'b' }] }, existing).values).toEqual([
      { value: 'a' },
      { value: 'b' },
    ]);
  });

  it('a single-valued field takes one value, appended or not; a required one is not emptied; the limit holds after an append', () => {
    const single = field('string');
    expect(afterChange(single, { mode: 'append', values: [{ value: 'b' }] }, existing).problem).toBe(
      'takes one value (the field is not multi)',
    );
    expect(
      afterChange(field('string', { required: true }), { mode: 'overwrite', values: [] }, existing).problem,
    ).toBe('is required');
    const full = Array.from({ length: MAX_VALUES_PER_FIELD }, (_, i) => ({ value: i }));
    expect(
      afterChange(field('integer', { multi: true }), { mode: 'append', values: [{ value: 1 }] }, full)
        .problem,
    ).toBe(`must have at most ${MAX_VALUES_PER_FIELD} values`);
  });
});
