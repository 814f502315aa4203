import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt } from 'passport-jwt';
import { Strategy } from 'passport-custom';
import type { Caller } from './caller';
import { StaticTokenRegistry } from './static-token.registry';

// The Authorization header only: a token in the query string or body is no credential (SPEC 1.12).
export const bearerTokenOf = ExtractJwt.fromAuthHeaderAsBearerToken();

/** Bearer tokens from configuration (service accounts, administrators). */
@Injectable()
export class StaticTokenStrategy extends PassportStrategy(Strategy, 'static-token') {
  constructor(private readonly registry: StaticTokenRegistry) {
    super();
  }

  validate(request: Request): Caller | false {
    const token = bearerTokenOf(request);
    return (token !== null && this.registry.find(token)) || false;
  }
}
