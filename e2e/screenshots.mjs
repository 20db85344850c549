// Screenshots of the release build: light and dark, desktop (1440 px) and phone (390 px).
// Usage: node e2e/screenshots.mjs [OUT_DIR] (default target/screenshots)
import fs from 'node:fs';
import { serveDist, launch, openApp } from './serve.mjs';

const out = process.argv[2] ?? 'target/screenshots';
fs.mkdirSync(out, { recursive: true });
const { server, url } = await serveDist();
const browser = await launch();
for (const scheme of ['light', 'dark']) {
  for (const [name, width, height] of [['desktop', 1440, 900], ['phone', 390, 844]]) {
    const { context, page, errors } = await openApp(browser, url, {
      viewport: { width, height },
      colorScheme: scheme,
      deviceScaleFactor: 1,
    });
    const file = `${out}/${name}-${scheme}.png`;
    await page.screenshot({ path: file, fullPage: false });
    console.log(file, errors.length ? errors : 'no errors');
    await context.close();
  }
}
await browser.close();
server.close();
