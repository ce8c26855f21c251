import { Column, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { UserEntity } from './user.entity.js';

/** The factors whose guesses are counted, each on its own counter (src/accounts/lockout/guessing-defence.ts). */
export const GUESSED_FACTORS = ['password', 'totp', 'mail_otp', 'recovery', 'webauthn'] as const;
export type GuessedFactor = (typeof GUESSED_FACTORS)[number];

/**
 * One account's unproven attempts at one factor. `failures` counts attempts reserved and not proved right
 * (an attempt is counted before it is verified, and the row goes when one succeeds); `locked_until` is set
 * when the count reaches the threshold. Rows exist only for real accounts (never for unknown emails) and go
 * with the user, on a success, or when an administrator unlocks.
 */
@Entity('login_attempts')
export class LoginAttemptEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'text' }) factor!: GuessedFactor;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @Column({ type: 'integer', default: 0 }) failures!: number;
  @Column({ type: 'timestamptz', nullable: true }) locked_until!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) last_failure_at!: Date | null;
}
