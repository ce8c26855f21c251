import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';

/**
 * Who did it and from where, as an audit record names it. Threaded explicitly (no AsyncLocalStorage, see
 * ARCHITECTURE: Events): `fromAuth(auth)` on authenticated routes, `fromRequest(req)` on public ones,
 * `OUTSIDE_REQUEST` for work without a request (workers, start-up, the admin command names itself).
 */
export interface AuditOrigin {
  actorUserId: string | null;
  actorAppId: string | null;
  /** The credential kind (LOGIN, PAT, OAUTH, TEMP), or what stood in for one (`password`, `admin_cli`). */
  actorKind: string | null;
  requestId: string | null;
  clientAddress: string | null;
}

export const OUTSIDE_REQUEST: AuditOrigin = {
  actorUserId: null,
  actorAppId: null,
  actorKind: null,
  requestId: null,
  clientAddress: null,
};

/** The caller of an authenticated route. */
export function fromAuth(auth: AuthContext): AuditOrigin {
  return {
    actorUserId: auth.userId,
    actorAppId: auth.appId,
    actorKind: auth.kind,
    requestId: auth.requestId,
    clientAddress: auth.clientAddress ?? null,
  };
}

/** A public route's request: nobody is known yet (the flow names the actor once it knows them). */
export function fromRequest(req: Pick<Request, 'id' | 'ip' | 'socket'> | undefined | null): AuditOrigin {
  if (!req) return OUTSIDE_REQUEST;
  return {
    ...OUTSIDE_REQUEST,
    requestId: req.id ?? null,
    clientAddress: clientAddressOf(req),
  };
}

/** The client's address as Express sees it (`trust proxy` applied), bounded. */
export function clientAddressOf(req: Pick<Request, 'ip' | 'socket'>): string | null {
  const ip = req.ip ?? req.socket?.remoteAddress;
  return ip ? ip.slice(0, 64) : null;
}
