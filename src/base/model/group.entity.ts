import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { DomainRow } from './system-domain.entity.js';

/**
 * What a row of `groups` is: a group (roles and ACLs), a team (people, no roles) or a role group (a bundle of
 * roles for its members). All three share the membership table, so a role group's roles reach the guard
 * through the same per-request lookup as a group's.
 */
export const GROUP_KINDS = ['GROUP', 'TEAM', 'ROLE_GROUP'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

/** Groups carry roles; a user's roles in a domain are the union of their groups' and role groups' roles there. */
@Entity('groups')
@Index('uq_groups_domain_name', ['system_domain_id', 'kind', 'name'], { unique: true })
@Check('ck_groups_kind', `"kind" IN ('GROUP', 'TEAM', 'ROLE_GROUP')`)
@Check('ck_groups_team_roles', `"kind" <> 'TEAM' OR "roles" = '{}'`)
export class GroupEntity extends DomainRow {
  @Column({ type: 'text', default: 'GROUP' }) kind!: GroupKind;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) roles!: string[];
  /** Teams and role groups (the published Team and RoleGroup): a short name and an outside system's id. */
  @Column({ type: 'text', nullable: true }) alias!: string | null;
  @Column({ type: 'text', nullable: true }) external_id!: string | null;
  @Column({ type: 'text', nullable: true }) default_user_type!: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) role_categories!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
