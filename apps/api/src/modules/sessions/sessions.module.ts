import { Module } from '@nestjs/common';
import { ResourceModule, SESSION_VERIFIER } from '@app/resource-kit';
import { LoginThrottle } from './login-throttle';
import { Session } from './session.entity';
import { SessionsService } from './sessions.service';

@Module({
  imports: [
    ResourceModule.forFeature(Session, {
      service: SessionsService,
      providers: [LoginThrottle, { provide: SESSION_VERIFIER, useExisting: SessionsService }],
    }),
  ],
})
export class SessionsModule {}
