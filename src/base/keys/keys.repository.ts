import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { FeatureRepository } from '../database/feature-repository.js';
import { SigningKeyEntity } from '../model/signing-key.entity.js';

/** A new key's row as SigningKeysService builds it (the private half already encrypted). */
export type NewSigningKey = Pick<
  SigningKeyEntity,
  'id' | 'algorithm' | 'public_key_pem' | 'private_key_encrypted' | 'status'
>;

/**
 * Every statement on the signing keys (signing_keys), for SigningKeysService: the service holds the key
 * material and the rules (which key signs, what a rotation keeps verifying). Methods that take part in a
 * rotation take its transaction's EntityManager (`transaction()`).
 */
@Injectable()
export class KeysRepository extends FeatureRepository {
  /** Every key, newest first, with its encrypted private half (a column not selected by default). */
  all(): Promise<SigningKeyEntity[]> {
    return this.ds
      .getRepository(SigningKeyEntity)
      .createQueryBuilder('k')
      .addSelect('k.private_key_encrypted')
      .orderBy('k.date_created', 'DESC')
      .getMany();
  }

  async insert(key: NewSigningKey, em: EntityManager = this.ds.manager): Promise<void> {
    await em.getRepository(SigningKeyEntity).insert(key);
  }

  /** The ACTIVE keys become PREVIOUS (they keep verifying), in the rotation's transaction. */
  async demoteActive(em: EntityManager): Promise<void> {
    await em.update(SigningKeyEntity, { status: 'ACTIVE' }, { status: 'PREVIOUS' });
  }

  /** A PREVIOUS key becomes RETIRED at `at`: whether there was one with this kid. */
  async retire(kid: string, at: Date): Promise<boolean> {
    const res = await this.ds
      .getRepository(SigningKeyEntity)
      .update({ id: kid, status: In(['PREVIOUS']) }, { status: 'RETIRED', date_retired: at });
    return (res.affected ?? 0) > 0;
  }
}
