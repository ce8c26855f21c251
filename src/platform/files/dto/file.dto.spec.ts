import type { ArgumentMetadata } from '@nestjs/common';
import { globalPipes } from '../../../base/common/validation/global-pipes.js';
import { CreateFileDto, FilePageQueryDto, UpdateFileDto } from './file.dto.js';

/** The global pipes, as a request's body or query goes through them. */
async function parse(
  metatype: ArgumentMetadata['metatype'],
  value: unknown,
  type: 'body' | 'query' = 'body',
) {
  let v = value;
  for (const pipe of globalPipes()) v = await pipe.transform(v, { type, metatype });
  return v as Record<string, unknown>;
}

const file = { original_name: 'a.bin', directory_path: '', type: 'FILE' };

describe('CreateFileDto / UpdateFileDto metadata: an object, or that object as JSON text', () => {
  it.each([
    [{ k: 'v' }, { k: 'v' }],
    ['{}', {}],
    ['{"k":"v","n":{"x":1}}', { k: 'v', n: { x: 1 } }],
  ])('%p is kept as %p', async (metadata, kept) => {
    expect((await parse(CreateFileDto, { ...file, metadata })).metadata).toEqual(kept);
    expect((await parse(UpdateFileDto, { metadata })).metadata).toEqual(kept);
  });

  it.each([
    'not json',
    '[1,2]',
    '"text"',
    '42',
    'null',
    '',
    '{"unclosed":',
    '{"k":"a\\u0000b"}',
    '{"k\\u0000":1}',
    `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`,
  ])('a string that is not a JSON object (%p) is a 400 naming metadata', async (metadata) => {
    await expect(parse(CreateFileDto, { ...file, metadata })).rejects.toMatchObject({ status: 400 });
    await expect(parse(UpdateFileDto, { metadata })).rejects.toMatchObject({ status: 400 });
  });

  it('a number or an array is a 400 too', async () => {
    for (const metadata of [5, [1], true])
      await expect(parse(CreateFileDto, { ...file, metadata })).rejects.toMatchObject({ status: 400 });
  });
});

describe('FilePageQueryDto generate_signed_url', () => {
  it('reads true and false; anything else is a 400', async () => {
    expect(
      (await parse(FilePageQueryDto, { generate_signed_url: 'true' }, 'query')).generate_signed_url,
    ).toBe(true);
    expect(
      (await parse(FilePageQueryDto, { generate_signed_url: 'false' }, 'query')).generate_signed_url,
    ).toBe(false);
    await expect(parse(FilePageQueryDto, { generate_signed_url: 'yes' }, 'query')).rejects.toMatchObject({
      status: 400,
    });
  });
});
