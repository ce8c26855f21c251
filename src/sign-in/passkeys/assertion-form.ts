import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AuthenticationResponseDto } from './dto/passkeys.dto.js';

/**
 * An AuthenticationResponseJSON posted as text (a page's form field), held to the same rules as the API's
 * body (AuthenticationResponseDto: every field's type and size): the response, or null when it is not one.
 */
export async function parseAssertion(text: string | undefined): Promise<AuthenticationResponseDto | null> {
  if (!text || text.length > 32_000) return null;
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return null;
  const dto = plainToInstance(AuthenticationResponseDto, plain);
  const problems = await validate(dto, { whitelist: true, forbidUnknownValues: true });
  return problems.length === 0 ? dto : null;
}
