/**
 * A domain: resources one team owns (SPEC 1.18), declared in a file of its own beside this
 * one (`<name>.domain.ts`, exporting `domain`). `npm run lint` checks the imports against
 * these declarations (.dependency-cruiser.cjs): a domain imports only the domains it depends
 * on, and of them only their public API; the dependencies form no cycle. Plain data: the
 * check reads these files as they are.
 */
export interface Domain {
  readonly name: string;
  /** What the domain is about, in a line. */
  readonly description: string;
  /** Its folders, under apps/api/src. */
  readonly folders: readonly string[];
  /** The domains whose public API it uses. */
  readonly dependsOn: readonly string[];
  /** Its files other domains may import, under apps/api/src: entities, services, functions. */
  readonly publicApi: readonly string[];
}
