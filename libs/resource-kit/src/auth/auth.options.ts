/** How the kit verifies and issues bearer tokens (ResourceKitModule.forRoot({ auth })). */
export interface AuthOptions {
  jwt: JwtOptions;
}

export type JwtOptions =
  | (JwtClaimsOptions & { algorithm: 'HS256'; secret: string })
  | (JwtClaimsOptions & { algorithm: 'RS256' | 'ES256'; privateKey: string; publicKey: string });

interface JwtClaimsOptions {
  issuer: string;
  audience: string;
  /** Token lifetime in seconds. */
  lifetimeSeconds: number;
}

export const KIT_AUTH_OPTIONS = Symbol('KIT_AUTH_OPTIONS');

/**
 * Implemented by the service (its sessions resource): whether a JWT's session still stands.
 * Asked on every request, so a deleted session stops working at once on every instance.
 */
export interface SessionVerifier {
  isActive(sessionId: string, userId: string): Promise<{ role: string } | undefined>;
}

export const SESSION_VERIFIER = Symbol('SESSION_VERIFIER');
