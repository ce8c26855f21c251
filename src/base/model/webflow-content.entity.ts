import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * What the registration pages show beside the form (the spec's WebflowContent), one entry per page route,
 * managed by operators. `slug` is the entry's key in the API.
 */
@Entity('webflow_contents')
export class WebflowContentEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webflow_contents' }) id!: string;
  @Index('uq_webflow_contents_slug', { unique: true })
  @Column({ type: 'text' })
  slug!: string;
  @Index('uq_webflow_contents_page_route', { unique: true })
  @Column({ type: 'text' })
  page_route!: string;
  @Column({ type: 'text', nullable: true }) caption!: string | null;
  @Column({ type: 'text', nullable: true }) category!: string | null;
  /** An https URL. */
  @Column({ type: 'text', nullable: true }) image!: string | null;
  @Column({ type: 'text', nullable: true }) name!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
