import 'reflect-metadata';
import { Delete, Get, HttpCode, Post } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Authenticated, Public } from '../auth/authenticated.decorator.js';
import { ApiErrors } from './api-errors.js';
import { Route } from './route.js';

class ItemDto {
  id!: string;
}

/** Every metadata key a method's function carries, with its value: what Nest and Swagger read of a route. */
function metadataOf(target: object, key: string): Record<string, unknown> {
  const handler = (target as Record<string, object>)[key];
  return Object.fromEntries(
    Reflect.getMetadataKeys(handler).map((k: unknown) => [
      String(k),
      Reflect.getMetadata(k, handler) as unknown,
    ]),
  );
}

class Declared {
  @Route.get(':item_id', {
    summary: 'One item',
    policy: { roles: ['can_read_assets'] },
    ok: ItemDto,
    errors: [404, { 409: 'Taken' }],
  })
  get(): void {}

  @Route.post({ summary: 'Create', policy: {}, created: ItemDto })
  create(): void {}

  @Route.delete(':item_id', {
    summary: 'Delete',
    policy: { admin: true },
    noContent: 'Deleted',
    errors: [404],
  })
  remove(): void {}

  @Route.post('check', { summary: 'Check', public: 'signin', ok: [ItemDto] })
  check(): void {}
}

class WrittenOut {
  @Get(':item_id')
  @HttpCode(200)
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({ summary: 'One item' })
  @ApiOkResponse({ type: ItemDto })
  @ApiErrors(404, { 409: 'Taken' })
  get(): void {}

  @Post()
  @HttpCode(201)
  @Authenticated({})
  @ApiOperation({ summary: 'Create' })
  @ApiCreatedResponse({ type: ItemDto })
  create(): void {}

  @Delete(':item_id')
  @HttpCode(204)
  @Authenticated({ admin: true })
  @ApiOperation({ summary: 'Delete' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  remove(): void {}

  @Post('check')
  @HttpCode(200)
  @Public('signin')
  @ApiOperation({ summary: 'Check' })
  @ApiOkResponse({ type: [ItemDto] })
  check(): void {}
}

describe('Route', () => {
  it.each(['get', 'create', 'remove', 'check'])(
    '%s carries exactly the metadata of the stack it stands for',
    (key) => {
      expect(metadataOf(Declared.prototype, key)).toEqual(metadataOf(WrittenOut.prototype, key));
    },
  );

  it('answers with the status it documents: a POST that answers ok is a 200, not Nest’s 201', () => {
    const check = (Declared.prototype as unknown as Record<string, object>).check;
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, check)).toBe(200);
    expect(Reflect.getMetadata(PATH_METADATA, check)).toBe('check');
    expect(Reflect.getMetadata(METHOD_METADATA, check)).toBe(1); // RequestMethod.POST
  });

  it('refuses a route that is neither authenticated nor public, or both', () => {
    expect(() => Route.get({ summary: 'x', ok: ItemDto })).toThrow(/exactly one of policy and public/);
    expect(() => Route.get({ summary: 'x', policy: {}, public: 'anonymous' })).toThrow(/exactly one/);
  });

  it('refuses two success answers', () => {
    expect(() => Route.post({ summary: 'x', policy: {}, ok: ItemDto, created: ItemDto })).toThrow(
      /at most one/,
    );
  });
});
