import { Injectable } from '@nestjs/common';
import { AuthenticatorRepository } from '../../base/database/authenticator-repository.js';
import { DirectoryEntity } from '../../base/model/federation.entity.js';

/** The statements of directories (DirectoriesService, DirectoryLoginService). */
@Injectable()
export class DirectoriesRepository extends AuthenticatorRepository<DirectoryEntity> {
  protected readonly entity = DirectoryEntity;
  readonly alias = 'r';
  protected readonly secret = 'bind_password_sealed';
  protected readonly bindingColumn = 'directory_id';

  /** The sealed password as stored (kept by an update that does not name it). */
  async sealedPassword(id: string): Promise<string | null> {
    return (await this.withSecret({ id }))?.bind_password_sealed ?? null;
  }
}
