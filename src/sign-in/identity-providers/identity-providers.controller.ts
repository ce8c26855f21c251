import { applyDecorators, Body, Controller, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import {
  ConvertedIdentityProviderDto,
  CreateIdentityProviderDto,
  IdentityProviderDto,
  IdentityProviderListDto,
  UpdateIdentityProviderDto,
} from './dto/identity-provider.dto.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { isXmlRequest, XmlBodyInterceptor } from './xml-body.js';
import { admin, DomainBindingRoutes } from './domain-binding.routes.js';
import { Route } from '../../base/common/http/route.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';

const XML_BODY = {
  description: 'The IdP’s SAML 2.0 metadata: an EntityDescriptor (no DTDs, at most 200 kB)',
  schema: { type: 'string' },
};
const id = input.uuidParam('identity_provider_id', 'Identity provider');
const idpAccess = { admin: true, access: { entity: 'identity_provider', param: 'identity_provider_id' } };
const UPDATE =
  'Update an identity provider (any subset; settings are merged over the stored ones and judged again)';
const edit = PutAndPatch({
  path: 'idp/:identity_provider_id',
  policy: idpAccess,
  ok: IdentityProviderDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH`,
  patch: UPDATE,
});
const idps = ServiceRoutes<IdentityProvidersService>('idps');
/** The body as read: JSON (validated by the service), or the XML text XmlBodyInterceptor put there. */
const anyBody: RouteInput<unknown> = { decorate: Body(), type: Object, rank: 2 };
/** Whether the request sent XML (application/xml and the like). */
const sentXml: RouteInput<boolean> = { ...input.requestId, pick: isXmlRequest };

/** The metadata XML of idp/convert: only a document sent as XML. */
function xmlDocument(body: unknown, xml: boolean): string {
  if (!xml || typeof body !== 'string')
    throw IdpErrors.INVALID_XML('send the EntityDescriptor as application/xml');
  return body;
}

/** Identity providers of the caller's domain and the email domains routed to them (domain administrators). */
@ApiTags('identity providers')
@ApiErrors(400)
@Controller('API/auth/v1/auth/saml')
export class IdentityProvidersController extends idps.handlers(
  {
    listIdentityProviders: idps.call(
      'list',
      Route.get('idp', {
        summary: 'Identity providers of the caller’s domain (cursor style)',
        policy: admin,
        ok: IdentityProviderListDto,
      }),
      input.caller,
      input.query(CursorQueryDto),
      input.path,
    ),
    // the stack `@Route.post @UseInterceptors @ApiConsumes @ApiBody`, applied bottom up as written
    createIdentityProvider: idps.handle(
      applyDecorators(
        ApiBody({
          type: CreateIdentityProviderDto,
          description:
            'As application/xml: the IdP’s metadata (an EntityDescriptor, no DTDs, at most 200 kB)',
        }),
        ApiConsumes('application/json', 'application/xml'),
        UseInterceptors(XmlBodyInterceptor),
        Route.post('idp', {
          summary:
            'Register an identity provider: JSON, or the IdP’s metadata XML (application/xml) for a GENERIC one; ' +
            'saml_settings says what to enter at the IdP',
          policy: admin,
          created: IdentityProviderDto,
        }),
      ),
      (s, c, b, xml) => s.create(c, xml ? String(b ?? '') : b),
      input.caller,
      anyBody,
      sentXml,
    ),
    convertIdentityProviderMetadata: idps.handle(
      applyDecorators(
        ApiBody(XML_BODY),
        ApiConsumes('application/xml'),
        UseInterceptors(XmlBodyInterceptor),
        Route.post('idp/convert', {
          summary: 'IdP metadata XML (an EntityDescriptor) → the settings JSON of a GENERIC IdP',
          policy: admin,
          created: ConvertedIdentityProviderDto,
        }),
      ),
      (s, b, xml) => s.convert(xmlDocument(b, xml)),
      anyBody,
      sentXml,
    ),
    getIdentityProvider: idps.call(
      'get',
      Route.get('idp/:identity_provider_id', {
        summary: 'One identity provider',
        policy: idpAccess,
        ok: IdentityProviderDto,
        errors: [404],
      }),
      input.caller,
      id,
    ),
    updateIdentityProvider: idps.call(
      'update',
      edit.patch,
      input.caller,
      id,
      input.body(UpdateIdentityProviderDto),
    ),
    deleteIdentityProvider: idps.call(
      'remove',
      Route.delete('idp/:identity_provider_id', {
        summary: 'Delete an identity provider (its email domains are unbound)',
        policy: idpAccess,
        noContent: 'Deleted',
        errors: [404],
      }),
      input.caller,
      id,
    ),
    replaceIdentityProvider: idps.call(
      'update',
      edit.put,
      input.caller,
      id,
      input.body(UpdateIdentityProviderDto),
    ),
  },
  DomainBindingRoutes,
) {
  constructor(
    protected readonly idps: IdentityProvidersService,
    protected readonly bindings: DomainBindingsService,
  ) {
    super();
  }
}
