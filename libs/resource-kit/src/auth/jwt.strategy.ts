import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { bearerTokenOf } from './static-token.strategy';
import { KIT_AUTH_OPTIONS, SESSION_VERIFIER } from './auth.options';
import type { AuthOptions, SessionVerifier } from './auth.options';
import type { Caller } from './caller';

interface SessionClaims {
  sub?: unknown;
  sid?: unknown;
  /** The tenant of the session's user, where the service has tenants (SPEC 1.15). */
  tid?: unknown;
}

/**
 * Session JWTs: signature with the one configured algorithm (no `none`, no confusion between
 * HMAC and public keys), issuer, audience and expiry, then the session must still exist.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(KIT_AUTH_OPTIONS) options: AuthOptions,
    private readonly moduleRef: ModuleRef,
  ) {
    const { jwt } = options;
    super({
      jwtFromRequest: bearerTokenOf,
      secretOrKey: jwt.algorithm === 'HS256' ? jwt.secret : jwt.publicKey,
      algorithms: [jwt.algorithm],
      issuer: jwt.issuer,
      audience: jwt.audience,
      ignoreExpiration: false,
    });
  }

  async validate(claims: SessionClaims): Promise<Caller | false> {
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return false;
    // The service's sessions resource provides the verifier; looked up where it is declared.
    const sessions = this.moduleRef.get<SessionVerifier>(SESSION_VERIFIER, { strict: false });
    const session = await sessions.isActive(claims.sid, claims.sub);
    if (!session) return false;
    const caller = { id: claims.sub, role: session.role, sessionId: claims.sid };
    return typeof claims.tid === 'string' ? { ...caller, tenant: claims.tid } : caller;
  }
}
