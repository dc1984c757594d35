// Loads the Trainer V2 Explorer when a mount point comes near the viewport, so the widget never
// delays the page's text. Each [data-trainer-v2-explorer] element keeps its static fallback
// until the widget replaces it; if loading fails, the fallback simply stays.
const mounts = [...document.querySelectorAll('[data-trainer-v2-explorer]')];
const here = (path) => new URL(path, import.meta.url).href;
let loading;
let converter;

// The V1 → V2 converter is a second module: only readers who open migrate mode download it
// (pkg-migrate/converter.js runs it in a worker).
function convert(text) {
  converter ??= import(here('./pkg-migrate/converter.js'));
  return converter.then((m) => m.convert(text));
}

function load() {
  loading ??= import(here('./pkg/trainer_v2_explorer.js')).then(async (m) => {
    await m.default();
    m.setMigrator(convert);
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
function restoreFragment() {
  if (readerActed || location.hash.length < 2) return;
  let id;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return;
  }
  document.getElementById(id)?.scrollIntoView();
}

function mountWhenNear(el) {
  load()
    .then((m) => {
      m.mount(el);
      requestAnimationFrame(restoreFragment);
    })
    .catch((err) => console.warn('Trainer V2 Explorer did not load; showing the static snippets.', err));
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
