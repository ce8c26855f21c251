import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dummyPasswordHash, verifyPassword } from '../common/crypto/passwords.js';
import { UserEntity } from '../users/user.entity.js';

/**
 * Email + password → the active user, or null. An unknown email, a wrong password and an inactive user all
 * cost one argon2 verification (a dummy hash when there is none), so timing does not tell them apart.
 */
@Injectable()
export class CredentialsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async verify(email: string, password: string): Promise<UserEntity | null> {
    const user = await this.ds
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where('u.email = :email', { email: email.trim().toLowerCase() })
      .getOne();
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
    if (!user || !user.password_hash || !ok || user.status !== 'ACTIVE') return null;
    delete (user as Partial<UserEntity>).password_hash;
    return user;
  }
}
