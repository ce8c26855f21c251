import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import type { JobEntity } from '../../base/model/job.entity.js';
import type { JobDto } from './dto/job.dto.js';

/** Percent done: 100 once FINISHED, else processed of total (0 without a total). */
function percent(j: JobEntity): number {
  if (j.status === 'FINISHED' || j.status === 'FINISHED_WITH_WARNING') return 100;
  const total = Number(j.progress_total ?? 0);
  if (total <= 0) return 0;
  return Math.min(100, Math.floor((Number(j.progress_processed) * 100) / total));
}

/** A job as the API answers it; `hasChildren`: other jobs name it as their parent. */
export function jobView(j: JobEntity, hasChildren = false): JobDto {
  return {
    id: j.id,
    type: j.type,
    custom_type: j.custom_type ?? null,
    status: j.status,
    title: j.title,
    object_type: j.object_type,
    object_id: j.object_id,
    progress_processed: Number(j.progress_processed),
    progress_total: j.progress_total === null ? null : Number(j.progress_total),
    progress: percent(j),
    priority: j.priority,
    message: j.message,
    error_message: j.error_message ?? null,
    metadata: j.metadata ?? {},
    job_context: j.job_context ?? {},
    action_context: j.action_context ?? {},
    related_objects: j.related_objects ?? [],
    parent_id: j.parent_id ?? null,
    has_children: hasChildren,
    started_at: wireDateOrNull(j.started_at),
    completed_at: wireDateOrNull(j.completed_at),
    created_by: j.created_by_user,
    created_by_user: j.created_by_user,
    system_domain_id: j.system_domain_id,
    date_created: wireDate(j.date_created),
    date_modified: wireDate(j.date_modified),
  };
}
