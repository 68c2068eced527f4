import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** apps/web/screenshots (gitignored). */
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../screenshots');

/** Saves `apps/web/screenshots/<name>.png` (name may hold sub-folders); returns the file path. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return file;
}
