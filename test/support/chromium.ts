import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), which the browser specs drive. */
export const CHROMIUM = '/usr/bin/chromium';

// Exactly these switches: without them Chromium reaches for the internet (updates, sync,
// field trials) and stalls on a machine that has none.
const SWITCHES = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessChromium {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh profile. Playwright's own default switches are
 * left out; it needs only its pipe to drive the browser.
 */
export async function launchChromium(): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    ignoreDefaultArgs: true,
    args: [...SWITCHES, `--user-data-dir=${profile}`, '--remote-debugging-pipe'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Whether Chromium is installed; when not, says loudly how to install it. */
export function chromiumInstalled(): boolean {
  if (existsSync(CHROMIUM)) return true;
  // Through console, so that the run's summary of skipped specs gives the reason too.
  console.warn(
    `\n${'!'.repeat(72)}\n` +
      `SKIPPED: the browser specs need Chromium at ${CHROMIUM} (apt-get install chromium).\n` +
      `${'!'.repeat(72)}\n`,
  );
  return false;
}
