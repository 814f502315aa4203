// A jest reporter: at the end of the run, one line per spec file that skipped tests for a
// reason it printed ("SKIPPED: ...": a program missing), or whose every test was skipped in a
// project, so that a green summary never hides a spec that did not run. CommonJS, as jest
// loads reporters as they are.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest loads this file as CommonJS
const { relative } = require('node:path');

const SKIPPED = /SKIPPED:?\s*(.*?)\s*(?:\*\*\*)?$/m;

class SkippedSpecsReporter {
  /** `options.projects`: lines for whole projects left out of the run, and why. */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.projects = options.projects ?? [];
    this.skipped = [];
  }

  onTestResult(test, result) {
    if (result.numPendingTests === 0 || result.testExecError) return;
    const ran = result.numPassingTests + result.numFailingTests;
    const warning = (result.console ?? [])
      .map((entry) => SKIPPED.exec(entry.message)?.[1])
      .find(Boolean);
    if (ran > 0 && !warning) return;
    const count = ran > 0 ? `${result.numPendingTests} of its tests` : 'all its tests';
    this.skipped.push({
      project: test.context.config.displayName?.name ?? '',
      path: relative(this.rootDir, result.testFilePath),
      why: `${count}: ${warning ?? 'they are for another engine or project'}`,
    });
  }

  onRunComplete() {
    const lines = [
      ...this.projects.map((line) => `  ${line}`),
      ...this.skipped
        .sort((a, b) => `${a.project}${a.path}`.localeCompare(`${b.project}${b.path}`))
        .map(({ project, path, why }) => `  ${project} ${path}: ${why}`),
    ];
    if (lines.length === 0) return;
    process.stderr.write(`\nSkipped (${lines.length}):\n${lines.join('\n')}\n`);
  }
}

module.exports = SkippedSpecsReporter;
