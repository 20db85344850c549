// The service worker (scripts/sw.mjs writes it into dist/sw.js with this build's VERSION, ASSETS
// and ON_USE). First visit: every file of the build is cached but the lazy module and the
// vocabularies (ON_USE), which are cached when first fetched. Later visits and offline: the page
// comes from the cache. A new build is a new sw.js: it installs beside the old one and waits;
// the page announces it (js/boot.js) and it takes over only when the reader chooses Reload,
// so a page is never silently stale nor silently swapped. Only this site's own files are
// answered: live calls to the providers (other origins, POST) never touch the cache.
const VERSION = '__VERSION__';
const ASSETS = __ASSETS__;
const ON_USE = __ON_USE__;
const CACHE = `toolscope-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((c) => c.addAll(ASSETS.map((a) => new Request(a, { cache: 'no-cache' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('toolscope-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  const path = url.pathname.startsWith(scope.pathname) ? url.pathname.slice(scope.pathname.length) : null;
  // The page itself is index.html under any query; another file opened as a page is that file.
  const key = path === '' ? 'index.html' : path;
  if (key === null) return;
  if (ASSETS.includes(key)) {
    event.respondWith(
      caches
        .open(CACHE)
        .then((c) => c.match(key))
        .then((hit) => hit ?? fetch(req)),
    );
  } else if (ON_USE.includes(key)) {
    event.respondWith(
      caches.open(CACHE).then(async (c) => {
        const hit = await c.match(key);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok) await c.put(key, res.clone());
        return res;
      }),
    );
  }
});
