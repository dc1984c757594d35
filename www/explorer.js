// Loads the Trainer V2 Explorer when a mount point comes near the viewport, so the widget never
// delays the page's text. Each [data-trainer-v2-explorer] element keeps its static fallback:
// before the widget loads it is simply the element's content; once mounted it stays there,
// hidden behind the widget's shadow root, and showFallback brings it back if the widget fails.
const mounts = [...document.querySelectorAll('[data-trainer-v2-explorer]')];
const here = (path) => new URL(path, import.meta.url).href;
// Dispatched by the widget's panic hook (browser::FAILED_EVENT in src/ui/browser.rs).
const FAILED_EVENT = 'trainer-v2-explorer:failed';
let loading;
let converter;
let dead = false;
const isTrap = (err) => typeof WebAssembly === 'object' && err instanceof WebAssembly.RuntimeError;

// The V1 → V2 converter is a second module: only readers who open migrate mode download it
// (pkg-migrate/converter.js runs it in a worker). `release` is the line to write for (v2.1).
// "What Kubernetes runs" and "Upgrading from an older release" come from the same module,
// loaded when a reader first opens one of them.
const converterModule = () => (converter ??= import(here('./pkg-migrate/converter.js')));
const convert = (text, release, onProgress) => converterModule().then((m) => m.convert(text, release, onProgress));
const explain = (details) =>
  converterModule().then(
    (m) => m.showPane(details),
    (err) => (details.querySelector('.pane-body').textContent = `The converter did not load: ${err}`),
  );

// The "What Kubernetes runs" figures of a page (the post's presets, and the blog's copy of them)
// are static HTML from the core; with JavaScript their items also highlight the TrainJob and
// runtime lines they come from. Here, and not in the post's page.js, so every host gets it.
if (document.querySelector('.k8s-linked')) {
  import(here('./pkg-migrate/sources.js')).then((m) => m.linkSources(document.body));
}
// The post (here and in the blog's copy) marks its body: its own code blocks get a Copy button.
const post = document.querySelector('[data-trainer-v2-post]');
if (post) import(here('./pkg-migrate/copy-blocks.js')).then((m) => m.addCopyButtons(post.parentElement));

// Shows the element's static fallback again: its light-DOM children, through a bare <slot> in
// place of the widget. Pure DOM work, so it runs after the module has trapped.
function showFallback(host) {
  host.removeAttribute('data-trainer-v2-explorer-mounted');
  host.setAttribute('data-trainer-v2-explorer-failed', '');
  const shadow = host.shadowRoot;
  if (!shadow) return; // never mounted: the fallback is showing
  shadow.adoptedStyleSheets = [];
  shadow.replaceChildren(document.createElement('slot'));
}

// The module panicked or trapped: it can run no more code, so every instance goes back to its
// fallback and no further instance mounts.
function fail(reason) {
  if (dead) return;
  dead = true;
  console.error('Trainer V2 Explorer stopped; showing the static snippets.', reason);
  document.querySelectorAll('[data-trainer-v2-explorer]').forEach(showFallback);
}

// A panic tells us through its hook, before the trap. A trap without a panic (an aborted
// allocation) reaches the page as an uncaught WebAssembly.RuntimeError. The browser does not say
// which module trapped; a trap in another module on the page costs the reader the widget's
// controls, never its snippets.
function watchForFailure() {
  window.addEventListener(FAILED_EVENT, (e) => fail(e.detail));
  window.addEventListener('error', (e) => isTrap(e.error) && fail(e.error));
  window.addEventListener('unhandledrejection', (e) => isTrap(e.reason) && fail(e.reason));
}

function load() {
  loading ??= import(here('./pkg/trainer_v2_explorer.js')).then(async (m) => {
    await m.default();
    watchForFailure();
    m.setMigrator(convert);
    m.setExplainer(explain);
    return m;
  });
  return loading;
}

// A link to a heading (#id) must land there even when a widget above it changes height as it
// mounts: until the reader scrolls or acts on the page, each mount puts the fragment back in place.
let readerActed = false;
for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {
  addEventListener(type, () => (readerActed = true), { capture: true, passive: true, once: true });
}
// A link that carries a selection (a shared link, the post's "Migrate a V1 job") is about the
// explorer: without a #fragment, the page opens at the main explorer. The keys are the widget's
// own (src/query.rs own_keys); a host's own query (Sphinx's ?highlight=) moves nothing.
const OWN_KEYS = /[?&](persona|framework|scope|mode|release|name|namespace|nodes|gpus|procs|image|queue|model|dataset)=/;
const shared = OWN_KEYS.test(location.search) ? document.querySelector('[data-trainer-v2-explorer]:not([data-compact])') : null;
function landing() {
  if (location.hash.length < 2) return shared;
  try {
    return document.getElementById(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return null;
  }
}
function restoreFragment() {
  if (!readerActed) landing()?.scrollIntoView();
}
restoreFragment();

// A keyboard reader faster than the download is on the fallback (a code block) when the widget
// mounts over it: that element leaves the page's rendering, and focus with it. Focus goes to the
// widget's first control instead, so the next Tab walks on through the widget.
function keepFocus(el) {
  const lost = document.activeElement;
  // Unless the reader moved on meanwhile.
  if (lost !== document.body && !el.contains(lost)) return;
  // Every widget's first stop is a radio group's checked radio (a roving tabindex).
  el.shadowRoot?.querySelector('[tabindex="0"]')?.focus();
}

function mountWhenNear(el) {
  load()
    .then((m) => {
      if (dead) return;
      const focused = el.contains(document.activeElement);
      m.mount(el);
      // Yew renders in a microtask: by the next frame the widget's controls are there.
      requestAnimationFrame(() => {
        restoreFragment();
        if (focused) keepFocus(el);
      });
    })
    .catch((err) => {
      if (isTrap(err)) return fail(err);
      console.warn('Trainer V2 Explorer did not load; showing the static snippets.', err);
      showFallback(el);
    });
}

if ('IntersectionObserver' in window) {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          mountWhenNear(entry.target);
        }
      }
    },
    { rootMargin: '600px 0px' },
  );
  mounts.forEach((el) => observer.observe(el));
} else {
  mounts.forEach(mountWhenNear);
}
