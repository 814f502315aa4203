import { Inject, Injectable } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { KIT_AUTH_OPTIONS } from './auth.options';
import type { AuthOptions } from './auth.options';

/** Signs session tokens (RFC 7519): sub, sid, iat, exp, iss, aud, with the pinned algorithm. */
@Injectable()
export class TokenIssuer {
  constructor(@Inject(KIT_AUTH_OPTIONS) private readonly options: AuthOptions) {}

  issue(
    userId: string,
    sessionId: string,
    issuedAt = new Date(),
  ): { token: string; expiresAt: Date } {
    const { jwt } = this.options;
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const exp = iat + jwt.lifetimeSeconds;
    const key = jwt.algorithm === 'HS256' ? jwt.secret : jwt.privateKey;
    const token = sign(
      { sub: userId, sid: sessionId, iat, exp, iss: jwt.issuer, aud: jwt.audience },
      key,
      {
        algorithm: jwt.algorithm,
      },
    );
    return { token, expiresAt: new Date(exp * 1000) };
  }
}
