import { FINAL_JOB_STATUSES, type JobEntity } from '../../base/model/job.entity.js';
import type { CreateJobDto, UpdateJobDto } from './dto/job.dto.js';
import { JobsErrors } from './jobs.errors.js';

/**
 * The rules of a job's fields, over plain values (JobsService applies them, its unit spec holds them):
 * what a PUT or PATCH changes, what no client may change, and which state a job may be put in.
 */
export type WriteMode = 'put' | 'patch';

/** The columns a client writes, with the value a PUT that omits them gives (type and status stay). */
const DEFAULTS = {
  title: '',
  custom_type: null,
  object_type: null,
  object_id: null,
  progress_processed: 0,
  progress_total: null,
  message: null,
  error_message: null,
  metadata: {},
  job_context: {},
  action_context: {},
  related_objects: [],
  parent_id: null,
  started_at: null,
  completed_at: null,
} as const;
type Field = keyof typeof DEFAULTS | 'type' | 'status';
const FIELDS = ['type', 'status', ...Object.keys(DEFAULTS)] as Field[];

/** The service's own jobs (KEYFRAMES): clients change neither these fields nor the job's state. */
export const SERVICE_JOB_TYPES = ['KEYFRAMES'];
const SERVICE_OWNED: Field[] = [
  'type',
  'status',
  'progress_processed',
  'progress_total',
  'started_at',
  'completed_at',
  'object_type',
  'object_id',
];

/** PUT …/jobs/state/: the states a job may be put in, each from these states. */
const STATE_FROM: Record<string, string[]> = {
  ABORT_PENDING: ['READY', 'WAITING', 'STARTED', 'PAUSED'],
  PAUSED: ['READY', 'WAITING', 'STARTED'],
  READY: ['PAUSED', 'WAITING'],
};

/** A body value as the column holds it (bigints as text, dates as Date). */
function column(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (field === 'progress_processed' || field === 'progress_total') return String(value);
  if (field === 'started_at' || field === 'completed_at') return new Date(value as string);
  return value;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a === 'object' && a !== null) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The columns a PUT or PATCH changes on `job` (only those that differ), with the stamps a status change
 * brings (started_at when it becomes STARTED, completed_at when it ends, unless given). Throws the 4xx of a
 * change no client may make: the state or progress of a service job (403), a final status (400), a
 * CUSTOM job without custom_type, an object id without its type, a job its own parent (400).
 */
export function plannedChanges(
  job: JobEntity,
  body: UpdateJobDto,
  mode: WriteMode,
  now: Date,
): Partial<JobEntity> {
  const service = SERVICE_JOB_TYPES.includes(job.type);
  const changes: Record<string, unknown> = {};
  for (const field of FIELDS) {
    let value: unknown = body[field as keyof UpdateJobDto];
    const keep = field === 'type' || field === 'status' || (service && SERVICE_OWNED.includes(field));
    // a null progress_processed leaves it (it has no null); on a PUT it is the default, 0
    if (field === 'progress_processed' && value === null) value = mode === 'put' ? 0 : undefined;
    if (value === undefined) {
      if (mode === 'patch' || keep) continue;
      value = DEFAULTS[field as keyof typeof DEFAULTS];
    }
    const stored = column(field, value);
    if (!same(job[field as keyof JobEntity], stored)) changes[field] = stored;
  }
  if (service && SERVICE_OWNED.some((f) => f in changes)) throw JobsErrors.SERVICE_JOB();
  if ('status' in changes && FINAL_JOB_STATUSES.includes(job.status)) throw JobsErrors.FINAL(job.status);
  const after = { ...job, ...changes } as JobEntity;
  if (after.type !== 'CUSTOM' && after.custom_type !== null) {
    if (body.custom_type != null) throw customTypeOutsideCustom();
    changes.custom_type = null; // the job stopped being CUSTOM
  }
  checkFields(after);
  if (after.parent_id !== null && after.parent_id === job.id)
    throw JobsErrors.INVALID({ parent_id: 'a job cannot be its own parent' });
  stamp(changes, after, now);
  return changes as Partial<JobEntity>;
}

/** The columns of a new job from its body, checked as a change is. */
export function newJob(body: CreateJobDto, now: Date): Partial<JobEntity> {
  if (body.type !== 'CUSTOM' && body.custom_type != null) throw customTypeOutsideCustom();
  const fields: Record<string, unknown> = { type: body.type, status: body.status ?? 'READY' };
  for (const field of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const given = body[field];
    fields[field] = column(field, given === undefined || given === null ? DEFAULTS[field] : given);
    if (given === null && field !== 'progress_processed') fields[field] = null;
  }
  fields.priority = body.priority ?? 0;
  checkFields(fields as unknown as JobEntity);
  stamp(fields, fields as unknown as JobEntity, now);
  return fields as Partial<JobEntity>;
}

function customTypeOutsideCustom() {
  return JobsErrors.INVALID({ custom_type: 'only a CUSTOM job has a custom_type' });
}

function checkFields(job: Pick<JobEntity, 'type' | 'custom_type' | 'object_type' | 'object_id'>): void {
  if (job.type === 'CUSTOM' && !job.custom_type)
    throw JobsErrors.INVALID({ custom_type: 'is required when type is CUSTOM' });
  if (job.object_id !== null && !job.object_type)
    throw JobsErrors.INVALID({ object_type: 'is required with object_id' });
}

/** started_at when the job starts, completed_at when it ends, unless the client gave them. */
function stamp(
  changes: Record<string, unknown>,
  after: Pick<JobEntity, 'status' | 'started_at' | 'completed_at'>,
  now: Date,
): void {
  if (!('status' in changes)) return;
  if (after.status === 'STARTED' && after.started_at === null) changes.started_at = now;
  if (FINAL_JOB_STATUSES.includes(after.status) && after.completed_at === null) changes.completed_at = now;
}

/**
 * The status PUT …/jobs/state/ gives `job` for `state`, or null when it is in that state already. A service
 * job is the service's (403); a move the list above does not allow is a 400 naming the job.
 */
export function stateChange(job: JobEntity, state: string): string | null {
  if (SERVICE_JOB_TYPES.includes(job.type)) throw JobsErrors.SERVICE_JOB();
  if (job.status === state) return null;
  if (!STATE_FROM[state]?.includes(job.status)) throw JobsErrors.TRANSITION(job.id, job.status, state);
  return state;
}
