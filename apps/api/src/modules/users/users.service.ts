import { Injectable } from '@nestjs/common';
import {
  clientAddressOf,
  conflict,
  invalidInput,
  KitError,
  RequestContext,
  ResourceInput,
  ResourceService,
  WriteContext,
} from '@app/resource-kit';
import { LoginThrottle } from '../../accounts/login.throttle';
import { NO_PASSWORD, PasswordHasher } from '../../accounts/password.hasher';
import { SignUpLimit } from '../../accounts/sign-up.limit';
import { Session } from '../sessions/session.entity';
import type { SessionsService } from '../sessions/sessions.service';
import { User } from './user.entity';

/**
 * Sign-up and profile changes: unique emails (any case), hashed passwords, and the rules of
 * SPEC 1.12: the current password to change one's password or email, which ends the other
 * sessions; passwords hashed outside any transaction.
 */
@Injectable()
export class UsersService extends ResourceService<User> {
  constructor(
    private readonly passwords: PasswordHasher,
    private readonly signUps: SignUpLimit,
    private readonly throttle: LoginThrottle,
  ) {
    super();
  }

  protected override async prepareCreate(
    input: ResourceInput,
    context: RequestContext,
  ): Promise<Partial<User>> {
    await this.signUps.attempt(clientAddressOf(context));
    return { passwordHash: await this.passwords.hash(input.get('password') as string) };
  }

  protected override async prepareUpdate(
    user: User,
    changes: ResourceInput,
    context: RequestContext,
  ): Promise<Partial<User>> {
    const credentials = changes.has('password') || changes.has('email');
    if (credentials && user.passwordHash === NO_PASSWORD) {
      throw new KitError('forbidden', [
        'the email of a static account comes from STATIC_TOKENS, and it has no password',
      ]);
    }
    const own = context.caller?.id === user.id;
    if (changes.has('currentPassword') || (credentials && own)) {
      await this.assertCurrentPassword(user, changes.get('currentPassword'), context);
    }
    if (!changes.has('password')) return {};
    return { passwordHash: await this.passwords.hash(changes.get('password') as string) };
  }

  protected override async beforeCreate(user: User, write: WriteContext): Promise<void> {
    user.role = 'customer';
    user.cartId = user.id;
    await this.setEmail(user, user.email, write);
  }

  protected override async beforeUpdate(
    user: User,
    changes: ResourceInput,
    write: WriteContext,
  ): Promise<void> {
    if (changes.has('email')) await this.setEmail(user, user.email, write);
    // A changed password or email ends every other session (SPEC 1.12).
    if (changes.has('password') || changes.has('email')) {
      const sessions = this.registry.serviceOf(Session) as SessionsService;
      const keep = write.caller?.id === user.id ? write.caller.sessionId : undefined;
      await sessions.endSessionsOf(write.manager, user.id, keep);
    }
  }

  // Checked like a log-in: throttled with it, so a stolen token cannot guess the password.
  private async assertCurrentPassword(
    user: User,
    given: unknown,
    context: RequestContext,
  ): Promise<void> {
    if (typeof given !== 'string') {
      throw invalidInput(['data.current_password is required to change the password or email']);
    }
    const clientAddress = clientAddressOf(context);
    await this.throttle.attempt(user.email, clientAddress);
    const { valid } = await this.passwords.verify(given, user.passwordHash);
    if (!valid) {
      this.throttle.failed(user.email, clientAddress, user.id);
      throw invalidInput(['data.current_password is not the current password']);
    }
    await this.throttle.succeeded(user.email, clientAddress);
  }

  private async setEmail(user: User, email: string, { manager }: WriteContext): Promise<void> {
    user.emailKey = email.toLowerCase();
    const taken = await manager.getRepository(User).findOneBy({ emailKey: user.emailKey });
    if (taken && taken.id !== user.id) throw conflict('data.email is already registered');
  }
}
