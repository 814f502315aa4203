/** Command-line options of `npm run bench -- [--quick] [--soak|--no-soak] [--profile S1]`. */
export interface BenchOptions {
  warmupSeconds: number;
  measureSeconds: number;
  soakSeconds: number;
  soak: boolean;
  profile?: string;
  /** Another built checkout (`npm ci && npm run build` there) whose service runs beside this one. */
  against?: string;
}

export function parseOptions(args: readonly string[]): BenchOptions {
  const quick = args.includes('--quick');
  const profileAt = args.indexOf('--profile');
  const againstAt = args.indexOf('--against');
  return {
    warmupSeconds: quick ? 1 : 3,
    measureSeconds: quick ? 3 : 10,
    soakSeconds: 60,
    // The full run includes the soak; a quick run only with --soak.
    soak: args.includes('--soak') || (!quick && !args.includes('--no-soak')),
    profile: profileAt >= 0 ? (args[profileAt + 1] ?? 'S1') : undefined,
    against: againstAt >= 0 ? args[againstAt + 1] : undefined,
  };
}
