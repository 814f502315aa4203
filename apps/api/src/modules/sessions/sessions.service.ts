import { Injectable } from '@nestjs/common';
import {
  clientAddressOf,
  KitError,
  RequestContext,
  ResourceInput,
  ResourceService,
  SessionVerifier,
  TokenIssuer,
  WriteContext,
} from '@app/resource-kit';
import { EntityManager, Not } from 'typeorm';
import { PasswordHasher } from '../../accounts/password.hasher';
import { User } from '../users/user.entity';
import { LoginThrottle } from '../../accounts/login.throttle';
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
    private readonly passwords: PasswordHasher,
  ) {
    super();
  }

  // The throttle and the password check, outside any transaction; a repeated Idempotency-Key
  // passes them too before its answer is given again (SPEC 1.12).
  protected override async prepareCreate(
    input: ResourceInput,
    context: RequestContext,
  ): Promise<Partial<Session>> {
    const email = input.get('email') as string;
    const clientAddress = clientAddressOf(context);
    await this.throttle.attempt(email, clientAddress);
    const users = this.dataSource.getRepository(User);
    const user = await users.findOneBy({ emailKey: email.toLowerCase() });
    const { valid, outdated } = await this.passwords.verify(
      input.get('password') as string,
      user?.passwordHash,
    );
    if (!user || !valid) {
      this.throttle.failed(email, clientAddress, user?.id);
      throw WRONG_CREDENTIALS;
    }
    await this.throttle.succeeded(email, clientAddress);
    if (outdated) await this.upgradeHash(user, input.get('password') as string);
    return { userId: user.id, user };
  }

  // The credentials were checked before the transaction; a change of them may have committed
  // since. Under the user's lock, either the change already committed (its hash or email is
  // here: refused), or it waits for this session and then ends it (SPEC 1.12).
  protected override async beforeCreate(session: Session, write: WriteContext): Promise<void> {
    const checked = session.user!;
    const current = await this.transactions
      .lockForUpdate(write.manager.getRepository(User).createQueryBuilder('account'))
      .where('account.id = :id', { id: checked.id })
      .getOne();
    if (current?.passwordHash !== checked.passwordHash || current.emailKey !== checked.emailKey) {
      throw WRONG_CREDENTIALS;
    }
    Object.assign(session, this.tokens.issue(session.userId, session.id, session.createdAt));
  }

  // The stored answer has no token: the same one is signed again (same claims, same expiry).
  protected override replayCreate(data: Record<string, unknown>): Record<string, unknown> {
    const issuedAt = new Date(data.created_at as string);
    const { token } = this.tokens.issue(data.user_id as string, data.id as string, issuedAt);
    return { ...data, token };
  }

  /**
   * Ends the user's sessions but `keep` (the one that changed the password), in the write's
   * transaction. Their stored log-in answers need the old credentials to be replayed.
   */
  async endSessionsOf(manager: EntityManager, userId: string, keep?: string): Promise<void> {
    await manager.delete(Session, { userId, ...(keep && { id: Not(keep) }) });
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

  // A hash made with weaker parameters is rewritten at today's, unless it changed meanwhile
  // (then `user` keeps the hash that was checked, and the log-in's own check refuses it).
  private async upgradeHash(user: User, password: string): Promise<void> {
    const passwordHash = await this.passwords.hash(password);
    const { affected } = await this.dataSource
      .getRepository(User)
      .update({ id: user.id, passwordHash: user.passwordHash }, { passwordHash });
    if (affected === 1) user.passwordHash = passwordHash;
  }
}
