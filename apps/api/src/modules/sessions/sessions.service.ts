import { Injectable } from '@nestjs/common';
import {
  KitError,
  ResourceService,
  SessionVerifier,
  TokenIssuer,
  WriteContext,
} from '@app/resource-kit';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../users/password';
import { User } from '../users/user.entity';
import { LoginThrottle } from './login-throttle';
import { Session } from './session.entity';

const WRONG_CREDENTIALS = new KitError('unauthenticated', ['wrong email or password'], {
  'WWW-Authenticate': 'Bearer',
});

/** Log in (create), log out (delete), and the check every JWT request makes. */
@Injectable()
export class SessionsService extends ResourceService<Session> implements SessionVerifier {
  constructor(
    private readonly tokens: TokenIssuer,
    private readonly throttle: LoginThrottle,
  ) {
    super();
  }

  protected override async beforeCreate(
    session: Session,
    { manager, clientAddress }: WriteContext,
  ): Promise<void> {
    const email = session.email!;
    await this.throttle.assertAllowed(email, clientAddress);
    const user = await manager.getRepository(User).findOneBy({ emailKey: email.toLowerCase() });
    // The same work whether or not the email is known, so timing does not tell.
    const valid = await verifyPassword(
      session.password!,
      user?.passwordHash ?? (await DUMMY_HASH_PROMISE),
    );
    if (!user || !valid) {
      await this.throttle.recordFailure(email, clientAddress, user?.id);
      throw WRONG_CREDENTIALS;
    }
    await this.throttle.recordSuccess(email);
    const { token, expiresAt } = this.tokens.issue(user.id, session.id, session.createdAt);
    Object.assign(session, { userId: user.id, token, expiresAt });
  }

  // Asked on every JWT request: the session as its user sees it, then that user's current
  // role, each a statement the kit compiled once.
  async isActive(sessionId: string, userId: string): Promise<{ role: string } | undefined> {
    const asTheUser = { caller: { id: userId, role: 'customer' } };
    const session = await this.find(sessionId, asTheUser);
    if (!session || session.expiresAt.getTime() <= Date.now()) return undefined;
    const user = await this.registry.serviceOf(User).find(userId, asTheUser);
    return user ? { role: (user as User).role } : undefined;
  }
}
