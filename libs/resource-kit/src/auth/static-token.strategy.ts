import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Caller } from './caller';
import { StaticTokenRegistry } from './static-token.registry';

/** Bearer tokens from configuration (service accounts, administrators). */
@Injectable()
export class StaticTokenStrategy extends PassportStrategy(Strategy, 'static-token') {
  constructor(private readonly registry: StaticTokenRegistry) {
    super();
  }

  validate(token: string): Caller | false {
    return this.registry.find(token) ?? false;
  }
}
