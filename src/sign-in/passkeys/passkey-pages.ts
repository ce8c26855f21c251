import type { Request } from 'express';
import { ListEnvelopeDto } from '../../base/common/http/list-envelope.dto.js';
import { type ListEnvelope, pageEnvelope } from '../../base/common/http/list-envelope.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { PasskeyDto } from './dto/passkeys.dto.js';

/** The list envelope of passkeys (the signed-in user's own, and an administrator's view). */
export class PasskeyListDto extends ListEnvelopeDto(PasskeyDto) {}

/** One page of a person's passkeys (a handful: read whole, cut here). */
export function page(all: PasskeyDto[], q: PageQueryDto, req: Request): ListEnvelope<PasskeyDto> {
  const start = (q.page - 1) * q.per_page;
  return pageEnvelope(all.slice(start, start + q.per_page), all.length, q.page, q.per_page, req.path, {});
}
