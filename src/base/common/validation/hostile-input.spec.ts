import { findHostileInput, HostileInputPipe, MAX_INPUT_DEPTH } from './hostile-input.js';

const nest = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('findHostileInput', () => {
  it('passes ordinary input, including non-BMP characters (paired surrogates) and RTL text', () => {
    expect(findHostileInput({ name: 'Zoë 😀 \u202Eabc', tags: ['x', { y: 1 }], n: null })).toBeNull();
    expect(findHostileInput(nest(MAX_INPUT_DEPTH - 1))).toBeNull();
  });

  it('refuses NUL and unpaired surrogates in values and keys, naming the field', () => {
    expect(findHostileInput({ email: 'a\u0000b' })).toEqual({
      field: 'email',
      problem: 'must not contain NUL characters',
    });
    expect(findHostileInput({ a: { b: ['ok', '\uD800'] } })).toEqual({
      field: 'a.b.1',
      problem: 'must not contain unpaired UTF-16 surrogates',
    });
    expect(findHostileInput({ x: 'lone low \uDC00 here' })?.field).toBe('x');
    expect(findHostileInput({ 'k\u0000': 1 })?.problem).toMatch(/field name/);
    expect(findHostileInput('\uDBFF')).not.toBeNull();
  });

  it('refuses nesting past the bound without recursing (100,000 levels)', () => {
    expect(findHostileInput(nest(MAX_INPUT_DEPTH + 1))?.problem).toMatch(/nested more than/);
    expect(findHostileInput(nest(100_000))?.problem).toMatch(/nested more than/);
  });

  it('as the first global pipe: 400 in the spec’s shape for bodies, queries and path parameters', () => {
    const pipe = new HostileInputPipe();
    expect(() => pipe.transform({ email: '\u0000' }, { type: 'body' })).toThrow(
      expect.objectContaining({ status: 400, errors: { email: 'must not contain NUL characters' } }),
    );
    expect(() => pipe.transform('x\u0000', { type: 'param', data: 'app_id' })).toThrow(
      expect.objectContaining({ status: 400, errors: { app_id: 'must not contain NUL characters' } }),
    );
    expect(() => pipe.transform(nest(50), { type: 'body' })).toThrow(
      expect.objectContaining({ status: 400, errors: ['Request body is nested more than 32 levels deep'] }),
    );
    expect(pipe.transform({ ok: 1 }, { type: 'custom' })).toEqual({ ok: 1 });
  });
});
