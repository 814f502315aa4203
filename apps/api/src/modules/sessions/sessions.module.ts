import { Module } from '@nestjs/common';
import { ResourceModule, SESSION_VERIFIER } from '@app/resource-kit';
import { AccountsModule } from '../../accounts/accounts.module';
import { Session } from './session.entity';
import { SessionsService } from './sessions.service';

@Module({
  imports: [
    ResourceModule.forFeature(Session, {
      service: SessionsService,
      imports: [AccountsModule],
      providers: [{ provide: SESSION_VERIFIER, useExisting: SessionsService }],
    }),
  ],
})
export class SessionsModule {}
