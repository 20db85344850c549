// The page's first script (inline in dist/index.html, allowed by its hash): put the saved theme
// on <html> before the first paint (the static shell of `toolscope prerender` paints before the
// wasm), then, once the page has loaded, register the service worker (dist/sw.js, written by
// scripts/sw.mjs) and announce a new version instead of swapping it in silently.
(() => {
  // The static first paint is the first example: a link's reader must not take it for the
  // link's exchange in the second before the wasm arrives (nor a reader with saved work, below).
  if (/^#v\d+\./.test(location.hash)) document.documentElement.classList.add('opening-link');
  try {
    const t = localStorage.getItem('toolscope.theme');
    if (t === 'light' || t === 'dark') document.documentElement.setAttribute('data-theme', t);
    // The static first paint carries the first visit's hint; once dismissed, it stays hidden.
    if (localStorage.getItem('toolscope.hint')) document.documentElement.classList.add('hint-dismissed');
    // Saved work in this browser: the wasm restores it, not the first example.
    if (Object.keys(localStorage).some((k) => k.startsWith('toolscope.work.') || k === 'toolscope.state.v1')) {
      document.documentElement.classList.add('opening-saved');
    }
  } catch {
    // Storage disabled: the system preference decides.
  }
  if (!('serviceWorker' in navigator)) return;
  let asked = false;
  // The new worker took over because the reader asked for it: load the new version.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (asked) location.reload();
  });
  const announce = (worker) => {
    // Only a page already run by a worker has an old version to replace.
    if (!navigator.serviceWorker.controller || document.querySelector('.update-banner')) return;
    const bar = document.createElement('div');
    bar.className = 'update-banner';
    bar.setAttribute('role', 'status');
    bar.dataset.testid = 'update-banner';
    const text = document.createElement('span');
    text.textContent = 'A new version of Toolscope is available. Your work is saved in this browser.';
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.className = 'primary small';
    reload.dataset.testid = 'update-reload';
    reload.textContent = 'Reload';
    reload.addEventListener('click', () => {
      asked = true;
      worker.postMessage('skip-waiting');
    });
    const later = document.createElement('button');
    later.type = 'button';
    later.className = 'ghost small';
    later.textContent = 'Later';
    later.addEventListener('click', () => bar.remove());
    bar.append(text, reload, later);
    document.body.append(bar);
  };
  const register = () =>
    navigator.serviceWorker
      .register('sw.js')
      .then((reg) => {
        if (reg.waiting) announce(reg.waiting);
        reg.addEventListener('updatefound', () => {
          const w = reg.installing;
          w?.addEventListener('statechange', () => {
            if (w.state === 'installed') announce(w);
          });
        });
        // A tab left open for days still hears of a new version.
        setInterval(() => reg.update().catch(() => {}), 60 * 60 * 1000);
      })
      .catch(() => {
        // No worker (a host that does not serve sw.js, private mode): the page works online.
      });
  // After the load, so the worker's precaching never competes with the first visit's wasm.
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
})();
