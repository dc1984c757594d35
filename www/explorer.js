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

function mountWhenNear(el) {
  load()
    .then((m) => m.mount(el))
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
