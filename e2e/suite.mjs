// The set-up the end-to-end files share: dist/ served on loopback, headless Chromium and, for
// the Live tab, the provider stand-in. A file calls `startApp` in `before` and `stopApp` in
// `after`.
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './serve.mjs';
import { startStandin } from './standin.mjs';

/**
 * Serve dist/ and launch Chromium; with `standin` options, start the provider stand-in too.
 * Returns `{ server, url, browser, standin }`; on a failure what was started is closed again.
 */
export async function startApp({ standin } = {}) {
  const { server, url } = await serveDist();
  const app = { server, url };
  try {
    app.browser = await launch();
    if (standin) app.standin = await startStandin(standin);
  } catch (e) {
    await stopApp(app);
    throw e;
  }
  return app;
}

/** Close what `startApp` started. */
export async function stopApp({ server, browser, standin } = {}) {
  await browser?.close();
  server?.close();
  await standin?.close();
}

/**
 * A test on a fresh page of the app at `url`: `body(page)` runs, then the page must have logged
 * no error; the browser context is closed either way.
 */
export async function onPage(browser, url, body) {
  const { context, page, errors } = await openApp(browser, url);
  try {
    await body(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}
