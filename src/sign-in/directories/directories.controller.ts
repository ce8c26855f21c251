import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CrudRoutes } from '../../base/common/http/crud-routes.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { DirectoriesService } from './directories.service.js';
import {
  CreateDirectoryDto,
  DirectoryDto,
  DirectoryListDto,
  DirectoryTestDto,
  DirectoryTestResultDto,
  UpdateDirectoryDto,
} from './dto/directory.dto.js';
import { Route } from '../../base/common/http/route.js';

const admin = { admin: true } as const;
const id = input.uuidParam('directory_id', 'Directory');
const routes = CrudRoutes({
  param: 'directory_id',
  policy: admin,
  item: DirectoryDto,
  list: DirectoryListDto,
  summaries: {
    list: 'The caller’s domain’s directories (page list)',
    create: 'Add a directory (LDAP or ACTIVE_DIRECTORY); the bind password is sealed, never shown',
    get: 'One directory',
    update: 'Change a directory (any subset; settings merged over the stored ones, judged again)',
    remove: 'Delete a directory (its email domains are unbound)',
  },
});
const directories = ServiceRoutes<DirectoriesService>('directories');
/** The body's email: the service takes the address alone. */
const testEmail: RouteInput<string | undefined> = {
  ...input.body(DirectoryTestDto),
  pick: (b: DirectoryTestDto) => b.email,
};

/** A domain's company directories (docs/federated-login.md): its administrators', in their own domain. */
@ApiTags('directories')
@ApiErrors(400)
@Controller('API/auth/v1/directories')
export class DirectoriesController extends directories.handlers({
  listDirectories: directories.call('list', routes.list, input.caller, input.query(PageQueryDto), input.path),
  createDirectory: directories.call('create', routes.create, input.caller, input.body(CreateDirectoryDto)),
  getDirectory: directories.call('get', routes.get, input.caller, id),
  updateDirectory: directories.call(
    'update',
    routes.update,
    input.caller,
    id,
    input.body(UpdateDirectoryDto),
  ),
  deleteDirectory: directories.call('remove', routes.remove, input.caller, id),
  testDirectory: directories.call(
    'test',
    Route.post(':directory_id/test', {
      summary:
        'Connect, bind as the service account and (with an email) search once: what each step found, or where ' +
        'it stopped (no one’s password is tried)',
      policy: admin,
      ok: DirectoryTestResultDto,
      errors: [404],
    }),
    input.caller,
    id,
    testEmail,
  ),
}) {
  constructor(protected readonly directories: DirectoriesService) {
    super();
  }
}
