import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const JobsErrors = defineErrors('jobs', {
  NOT_FOUND: message(404, 'Job not found'),
  INVALID: fields(),
  /** FINISHED, FAILED, ABORTED, SKIPPED … are final. */
  FINAL: {
    status: 400,
    body: (status: string) => [`The job is ${status}: a finished job cannot change status`],
  },
  /** PUT …/jobs/state/: a job that cannot go from its status to the one asked for. */
  TRANSITION: {
    status: 400,
    body: (id: string, from: string, to: string) => [`Job ${id} is ${from}: it cannot become ${to}`],
  },
  SERVICE_JOB: message(403, 'This job is run by the service; its status is not set by clients'),
  /** DELETE: a job the service runs that has not ended. */
  RUNNING: {
    status: 409,
    body: (id: string) => [`Job ${id} is run by the service and has not ended: it cannot be deleted yet`],
  },
});
