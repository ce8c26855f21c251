import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CrudRoutes } from '../../base/common/http/crud-routes.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
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
const uuid = new UuidParamPipe('Directory');
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

/** A domain's company directories (docs/federated-login.md): its administrators', in their own domain. */
@ApiTags('directories')
@ApiErrors(400)
@Controller('API/auth/v1/directories')
export class DirectoriesController {
  constructor(private readonly directories: DirectoriesService) {}

  @routes.list
  listDirectories(@Query() q: PageQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.directories.list(caller, q, req.path);
  }

  @routes.create
  createDirectory(@Body() body: CreateDirectoryDto, @Caller() caller: AuthContext): Promise<DirectoryDto> {
    return this.directories.create(caller, body);
  }

  @routes.get
  getDirectory(
    @Param('directory_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<DirectoryDto> {
    return this.directories.get(caller, id);
  }

  @routes.update
  updateDirectory(
    @Param('directory_id', uuid) id: string,
    @Body() body: UpdateDirectoryDto,
    @Caller() caller: AuthContext,
  ): Promise<DirectoryDto> {
    return this.directories.update(caller, id, body);
  }

  @routes.remove
  deleteDirectory(@Param('directory_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.directories.remove(caller, id);
  }

  @Route.post(':directory_id/test', {
    summary:
      'Connect, bind as the service account and (with an email) search once: what each step found, or where ' +
      'it stopped (no one’s password is tried)',
    policy: admin,
    ok: DirectoryTestResultDto,
    errors: [404],
  })
  testDirectory(
    @Param('directory_id', uuid) id: string,
    @Body() body: DirectoryTestDto,
    @Caller() caller: AuthContext,
  ): Promise<DirectoryTestResultDto> {
    return this.directories.test(caller, id, body.email);
  }
}
