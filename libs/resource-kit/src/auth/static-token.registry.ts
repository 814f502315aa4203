import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Caller } from './caller';

/**
 * Bearer tokens granted by configuration. Lookups compare SHA-256 digests in constant time,
 * so neither a token's content nor its length leaks through timing.
 */
@Injectable()
export class StaticTokenRegistry {
  private readonly entries: { digest: Buffer; caller: Caller }[] = [];

  register(token: string, caller: Caller): void {
    this.entries.push({ digest: digest(token), caller });
  }

  find(token: string): Caller | undefined {
    const given = digest(token);
    let found: Caller | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, given)) found = entry.caller;
    }
    return found;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
