import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';
import { IMAGE_MAX_BYTES } from '../../base/common/http/image-upload.js';

export const TeamsErrors = defineErrors('teams', {
  TEAM_NOT_FOUND: message(404, 'Team not found'),
  ROLE_GROUP_NOT_FOUND: message(404, 'Role group not found'),
  GROUP_NOT_FOUND: message(404, 'Group not found'),
  MAPPING_NOT_FOUND: message(404, 'Group mapping not found'),
  MAPPING_TAKEN: message(409, 'A mapping of this name already exists in this domain'),
  MEMBER_NOT_FOUND: message(404, 'Member not found'),
  NAME_TAKEN: message(409, 'The name is already taken in this domain'),
  INVALID: fields(),
  ROLES_NOT_HELD: { status: 403, body: (what: string, roles: string[]) => [`${what}: ${roles.join(', ')}`] },
  NO_LOGO: message(404, 'No logo'),
  IMAGE_MISSING: message(
    400,
    'Send one image: a raw image/* body, or multipart/form-data in the field "logo" or "file"',
  ),
  IMAGE_TYPE: message(400, 'The image must be a PNG, JPEG, GIF or WebP file'),
  IMAGE_TOO_LARGE: message(413, `The image must be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MiB`),
});
