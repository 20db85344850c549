// The second part of the main wasm (scripts/split.mjs appends this to wasm-bindgen's glue).
// The primary module imports one placeholder per function that moved to the rest; the rest,
// once instantiated with the primary's exports, writes the real functions into the primary's
// table over the placeholders. So the rest is fetched as soon as the app has mounted, and a
// placeholder called before it arrived loads it synchronously, then calls the real function:
// a call can wait, never fail.
const __split = (() => {
  const url = new URL(__REST__, import.meta.url);
  let primary = null;
  let loaded = false;
  const ahead = new AbortController();

  function instantiate(module) {
    if (loaded) return;
    new WebAssembly.Instance(module, { primary });
    loaded = true;
    document.documentElement.dataset.engine = 'ready';
    dispatchEvent(new Event('toolscope:engine'));
  }

  // Synchronous: a function of the rest was called before it arrived. A synchronous request on
  // the main thread is what keeps the call's semantics (it returns a value now).
  function loadNow(slot) {
    console.debug(`Toolscope: table slot ${slot} called before ${url.pathname} arrived; loading it now`);
    // The fetch ahead of use would only share the line with this one.
    ahead.abort();
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url, false);
    xhr.overrideMimeType('text/plain; charset=x-user-defined');
    xhr.send();
    if (xhr.status !== 200) throw new Error(`Toolscope could not load ${url.pathname} (HTTP ${xhr.status})`);
    const text = xhr.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    instantiate(new WebAssembly.Module(bytes));
  }

  return {
    // `placeholder.<slot>`: called in place of the function at table slot <slot>.
    placeholders: new Proxy(
      {},
      {
        // Read once per import, when the primary is instantiated.
        get(_, name) {
          const slot = Number(name);
          return (...args) => {
            if (!loaded) loadNow(slot);
            return primary['%table'].get(slot)(...args);
          };
        },
      },
    ),
    // Before the app starts. A page the service worker controls has the rest in its cache (the
    // cache holds one build, both parts): it is read and instantiated first, as one module
    // would be, since a synchronous request would bypass the worker.
    // Otherwise the app starts without it, told so by <html data-engine="loading">
    // (src/ui/engine.rs), and the event `toolscope:engine` says when it is here.
    async beforeStart(exports) {
      primary = exports;
      if (navigator.serviceWorker?.controller) {
        try {
          instantiate(await WebAssembly.compileStreaming(fetch(url)));
        } catch (e) {
          console.warn(`Toolscope: the cached ${url.pathname} did not load (${e}); fetching it after the start`);
        }
      }
      if (!loaded) document.documentElement.dataset.engine = 'loading';
    },
    // After the first render: fetch and compile off the main thread, then instantiate.
    // Nothing when it is here already (from the worker's cache, or loaded synchronously).
    mounted() {
      if (loaded) return;
      WebAssembly.compileStreaming(fetch(url, { signal: ahead.signal }))
        .then(instantiate)
        .catch((e) => loaded || console.error(`Toolscope could not load ${url.pathname} ahead of use: ${e}`));
    },
  };
})();
