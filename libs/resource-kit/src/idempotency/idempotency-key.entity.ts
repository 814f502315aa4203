import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key of one caller: claimed while its first request runs, then holding the
 * answer that request got (written in the same transaction as the request's write).
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_expires_at', ['expiresAt'])
@Index('idempotency_keys_resource_id', ['resourceId'])
export class IdempotencyKey {
  /** `user:{id}` for a caller with a token; `public:{path}` for a public POST without one. */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  scope!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  @Column({ type: 'varchar', length: 255 })
  path!: string;

  /** HMAC of the canonical JSON body: a repeat with another body is 422. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /** The request holding the key; only it may store the answer. */
  @Column({ type: 'varchar', length: 36 })
  claim!: string;

  /** While the claim holds; after that a request that died is assumed and the key reclaimable. */
  @Column({ name: 'locked_until', type: Date, nullable: true })
  lockedUntil!: Date | null;

  /** The stored answer; null while the first request runs. */
  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  /** The resource the request created, for answers that must not outlive it (a session). */
  @Column({ name: 'resource_id', type: 'varchar', length: 36, nullable: true })
  resourceId!: string | null;

  @Column({ name: 'expires_at', type: Date })
  expiresAt!: Date;
}
