import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const JobsErrors = defineErrors('jobs', {
  NOT_FOUND: message(404, 'Job not found'),
  INVALID: fields(),
  /** FINISHED, FAILED, ABORTED, SKIPPED … are final. */
  FINAL: {
    status: 400,
    body: (status: string) => [`The job is ${status}: a finished job cannot change status`],
  },
  SERVICE_JOB: message(403, 'This job is run by the service; its status is not set by clients'),
});
