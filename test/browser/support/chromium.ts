import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

/** Debian's chromium package; playwright-core drives it through `executablePath` (no browser download). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a quiet headless run in containers and CI: no sandbox (root), no GPU, no network chatter. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/**
 * Makes sure chromium is there: installs Debian's package when running as root (fresh CI machines),
 * otherwise fails with one line saying how to install it.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`The browser tests need chromium at ${CHROMIUM_PATH}: install it with \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
  }
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium, but ${CHROMIUM_PATH} is still missing.`);
}
