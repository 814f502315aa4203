import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import { timingSafeEqual } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { Repository } from 'typeorm';
import { SETTINGS } from '../shop.wire';
import { Session, User } from './shop.entities';

export interface Caller {
  id: string;
  role: string;
}

/** Session JWTs: the signature and claims, then the session row and its user's role. */
@Injectable()
export class SessionJwtStrategy extends PassportStrategy(Strategy, 'session-jwt') {
  constructor(@InjectRepository(Session) private readonly sessions: Repository<Session>) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: SETTINGS.jwtSecret,
      ...SETTINGS.jwt,
    });
  }

  async validate(claims: { sub: string; sid: string }): Promise<Caller> {
    const session = await this.sessions.findOne({
      where: { id: claims.sid, user_id: claims.sub },
      relations: { user: true },
    });
    if (!session?.user || session.expires_at.getTime() <= Date.now())
      throw new UnauthorizedException();
    return { id: claims.sub, role: session.user.role };
  }
}

/** Static administrator tokens, compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private admins?: Map<string, string>;

  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string>; user?: Caller }>();
    const given = Buffer.from((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    for (const [token, id] of await this.adminTokens()) {
      const known = Buffer.from(token);
      if (known.length === given.length && timingSafeEqual(known, given)) {
        request.user = { id, role: 'admin' };
        return true;
      }
    }
    throw new UnauthorizedException();
  }

  private async adminTokens(): Promise<Map<string, string>> {
    if (!this.admins) {
      this.admins = new Map();
      for (const { token, email } of SETTINGS.adminTokens) {
        const user = await this.users.findOneBy({ email_key: email.toLowerCase() });
        if (user) this.admins.set(token, user.id);
      }
    }
    return this.admins;
  }
}
