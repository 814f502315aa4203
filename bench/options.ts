/** Command-line options of `npm run bench -- [--quick] [--soak|--no-soak] [--profile S1]`. */
export interface BenchOptions {
  warmupSeconds: number;
  measureSeconds: number;
  soakSeconds: number;
  soak: boolean;
  profile?: string;
}

export function parseOptions(args: readonly string[]): BenchOptions {
  const quick = args.includes('--quick');
  const profileAt = args.indexOf('--profile');
  return {
    warmupSeconds: quick ? 1 : 3,
    measureSeconds: quick ? 3 : 10,
    soakSeconds: 60,
    // The full run includes the soak; a quick run only with --soak.
    soak: args.includes('--soak') || (!quick && !args.includes('--no-soak')),
    profile: profileAt >= 0 ? (args[profileAt + 1] ?? 'S1') : undefined,
  };
}
