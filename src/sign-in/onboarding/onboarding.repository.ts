import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, IsNull, LessThan } from 'typeorm';
import { RegistrationEntity } from '../../base/model/registration.entity.js';

/** The registration statements that replace a pending registration, in the registration's transaction. */
@Injectable()
export class OnboardingRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The account with this email, locked for the transaction (orders two registrations of one email). */
  async lockAccountId(em: EntityManager, email: string): Promise<string | undefined> {
    // raw: SELECT … FOR UPDATE of one row of the users table by its unique email
    const [account] = (await em.query('SELECT id FROM users WHERE email = $1 FOR UPDATE', [email])) as {
      id: string;
    }[];
    return account?.id;
  }

  /** Unverified registrations of the email: ended ones before `dropBefore` go, live ones are superseded. */
  async retirePending(em: EntityManager, email: string, now: Date, dropBefore: Date): Promise<void> {
    const registrations = em.getRepository(RegistrationEntity);
    await registrations.delete({ email, verified_at: IsNull(), expires: LessThan(dropBefore) });
    await registrations.update(
      { email, verified_at: IsNull(), superseded_at: IsNull() },
      { superseded_at: now },
    );
  }
}
