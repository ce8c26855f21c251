import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const SIGNING_KEY_STATUSES = ['ACTIVE', 'PREVIOUS', 'RETIRED'] as const;
export type SigningKeyStatus = (typeof SIGNING_KEY_STATUSES)[number];

/** An ES256 key pair. The newest ACTIVE key signs; PREVIOUS keys still verify; RETIRED keys are gone from JWKS. */
@Entity('signing_keys')
export class SigningKeyEntity {
  /** The JWT `kid`. */
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'text' }) algorithm!: string;
  @Column({ type: 'text' }) public_key_pem!: string;
  /** AES-256-GCM ciphertext of the PKCS#8 private key: iv.tag.ciphertext, base64url. */
  @Column({ type: 'text', select: false }) private_key_encrypted!: string;
  @Column({ type: 'text' }) status!: SigningKeyStatus;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @Column({ type: 'timestamptz', nullable: true }) date_retired!: Date | null;
}
