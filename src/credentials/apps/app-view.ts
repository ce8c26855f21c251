import type { AppDto } from './dto/app.dto.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { wireDate } from '../../base/common/http/wire-date.js';

export function appView(a: AppEntity): AppDto {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    url: a.url,
    default_user_id: a.default_user_id,
    system_domain_id: a.system_domain_id,
    type: a.type,
    oauth_client_type: a.oauth_client_type,
    allowed_scopes: a.allowed_scopes,
    redirect_uris: a.redirect_uris,
    allowed_origins: a.allowed_origins,
    post_logout_redirect_uris: a.post_logout_redirect_uris,
    date_created: wireDate(a.date_created),
    date_modified: wireDate(a.date_modified),
  };
}
