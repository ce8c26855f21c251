import 'reflect-metadata';
import { Body, Param, Query, Req } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { AuthContext } from '../auth/auth-context.js';
import { Caller } from '../auth/caller.decorator.js';
import { Route } from './route.js';
import { input, ServiceRoutes } from './service-routes.js';
import { UuidParamPipe } from './uuid-param.pipe.js';

class ItemQueryDto {
  q?: string;
}
class ItemBodyDto {
  name!: string;
}

/** The service the routes hand their requests to: what each method received. */
class ItemsService {
  calls: unknown[][] = [];
  list(c: AuthContext, q: ItemQueryDto, p: string) {
    this.calls.push(['list', c, q, p]);
    return Promise.resolve('listed');
  }
  update(c: AuthContext, id: string, b: ItemBodyDto) {
    this.calls.push(['update', c, id, b]);
    return Promise.resolve('updated');
  }
  rename(c: AuthContext, id: string, name: string, request: string | null) {
    this.calls.push(['rename', c, id, name, request]);
    return Promise.resolve('renamed');
  }
  children(c: AuthContext, id: string, childId: string, q: ItemQueryDto) {
    this.calls.push(['children', c, id, childId, q]);
    return Promise.resolve('children');
  }
}

const items = ServiceRoutes<ItemsService>('items');
const id = input.uuidParam('item_id');
// a decorator each time it is used: a decorator value applied to two methods is not what controllers do
const getRoute = () => Route.get({ summary: 'List', policy: {}, ok: ItemQueryDto });
const patchRoute = () => Route.patch(':item_id', { summary: 'Change', policy: {}, ok: ItemBodyDto });
const childRoute = () =>
  Route.get(':item_id/children/:child_id', {
    summary: 'Children',
    policy: {},
    ok: ItemBodyDto,
  });

const renameRoute = () => Route.put(':item_id/name', { summary: 'Rename', policy: {}, ok: ItemBodyDto });

class Base {
  inherited(): string {
    return 'base';
  }
}

class Tabled extends items.handlers(
  {
    listItems: items.call('list', getRoute(), input.caller, input.query(ItemQueryDto), input.path),
    updateItem: items.call('update', patchRoute(), input.caller, id, input.body(ItemBodyDto)),
    renameItem: items.handle(
      renameRoute(),
      (s, c, b, i, r) => s.rename(c, i, b.name, r),
      input.caller,
      input.body(ItemBodyDto),
      id,
      input.requestId,
    ),
    listChildren: items.call(
      'children',
      childRoute(),
      input.caller,
      id,
      input.uuidParam('child_id', 'Child'),
      input.query(ItemQueryDto),
    ),
  },
  Base,
) {
  constructor(readonly items: ItemsService) {
    super();
  }
}

const uuid = new UuidParamPipe();
class WrittenOut {
  @getRoute()
  listItems(@Query() q: ItemQueryDto, @Caller() c: AuthContext, @Req() req: object): void {
    void [q, c, req];
  }

  @patchRoute()
  updateItem(@Param('item_id', uuid) i: string, @Body() b: ItemBodyDto, @Caller() c: AuthContext): void {
    void [i, b, c];
  }

  @renameRoute()
  renameItem(
    @Param('item_id', uuid) i: string,
    @Body() b: ItemBodyDto,
    @Caller() c: AuthContext,
    @Req() req: object,
  ): void {
    void [i, b, c, req];
  }

  @childRoute()
  listChildren(
    @Param('item_id', uuid) i: string,
    @Param('child_id', new UuidParamPipe('Child')) child: string,
    @Query() q: ItemQueryDto,
    @Caller() c: AuthContext,
  ): void {
    void [i, child, q, c];
  }
}

/** What Nest and Swagger read of one handler: its route metadata, parameter decorators and parameter types. */
function seen(cls: { prototype: object }, key: string) {
  const handler = (cls.prototype as Record<string, object>)[key];
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, key) as Record<
    string,
    { index: number; data: unknown; pipes: unknown[] }
  >;
  return {
    route: Object.fromEntries(
      Reflect.getMetadataKeys(handler).map((k: unknown) => [
        String(k),
        Reflect.getMetadata(k, handler) as unknown,
      ]),
    ),
    // the recorded order is what the document lists the parameters in
    args: Object.entries(args).map(([k, v]) => [
      k.replace(/^[^:]*__customRouteArgs__/, 'custom'),
      v.index,
      v.data,
      v.pipes.map((p) => p?.constructor?.name),
    ]),
    types: Reflect.getMetadata('design:paramtypes', cls.prototype, key) as unknown[],
  };
}

describe('ServiceRoutes', () => {
  it.each(['listItems', 'updateItem', 'renameItem', 'listChildren'])(
    '%s: the same route, parameters, parameter order and types as the handler written out',
    (key) => {
      const tabled = seen(Tabled, key);
      const written = seen(WrittenOut, key);
      expect(tabled.route).toEqual(written.route);
      expect(tabled.args).toEqual(written.args);
      expect(tabled.types).toEqual(written.types);
    },
  );

  it('calls the service method with the inputs in the table order, the request reduced to its path', async () => {
    const service = new ItemsService();
    const controller = new Tabled(service) as unknown as Record<
      string,
      (...a: unknown[]) => Promise<unknown>
    >;
    const who = { userId: 'u' } as unknown as AuthContext;
    const q = { q: 'x' };
    // the handler's parameters come in rank order: path parameters, query, body, caller, request
    await expect(controller.listItems(q, who, { path: '/API/items/' })).resolves.toBe('listed');
    await expect(controller.updateItem('i-1', { name: 'n' }, who)).resolves.toBe('updated');
    await expect(controller.listChildren('i-1', 'c-1', q, who)).resolves.toBe('children');
    // a handle entry: its function gets the service and the inputs' values in the table's order
    await expect(controller.renameItem('i-1', { name: 'm' }, who, { id: 'req-1' })).resolves.toBe('renamed');
    await expect(controller.renameItem('i-1', { name: 'm' }, who, {})).resolves.toBe('renamed');
    expect(service.calls).toEqual([
      ['list', who, q, '/API/items/'],
      ['update', who, 'i-1', { name: 'n' }],
      ['children', who, 'i-1', 'c-1', q],
      ['rename', who, 'i-1', 'm', 'req-1'],
      ['rename', who, 'i-1', 'm', null],
    ]);
  });

  it('keeps the base class: its methods stay, after the table’s on the prototype chain', () => {
    const controller = new Tabled(new ItemsService());
    expect(controller.inherited()).toBe('base');
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(Tabled.prototype))).toEqual([
      'constructor',
      'listItems',
      'updateItem',
      'renameItem',
      'listChildren',
    ]);
  });
});
