// The Trainer V2 Explorer on any page: the <trainer-v2-explorer> element, and the
// [data-trainer-v2-explorer] mount point as its alias (the post and the three kits use it). Both
// take the same options (the element as attributes, the mount point as data-* attributes) and go
// through one path: attach() when the host is on the page (the element's connectedCallback; for
// mount points, a MutationObserver that also sees those added later, as on a client-routed docs
// site), the widget mounted once the host comes near the viewport, detach() when it leaves.
//
// Importing this module does nothing by itself: define.js registers the element and starts
// watching for mount points. Until the widget mounts, and again if it fails, the host's
// light-DOM children are what the reader sees: its static fallback.
//
// The widget's files load next to this module (a bundler that sees the literal imports below
// emits them with the page), or from TrainerV2Explorer.assets / the `assets` attribute when set.
// Nothing is fetched from another origin unless the page says so there.

/** The attribute that makes an element a mount point, the element's alias. */
export const ALIAS = 'data-trainer-v2-explorer';
/** Set on a host once its widget has mounted (by the wasm, src/ui/browser.rs). */
export const MOUNTED = 'data-trainer-v2-explorer-mounted';
/** Set on a host whose widget failed: its static fallback shows. */
export const FAILED = 'data-trainer-v2-explorer-failed';
// Events shared with the widget's wasm (src/ui/browser.rs).
const FAILED_EVENT = 'trainer-v2-explorer:failed';
const OPTIONS_EVENT = 'trainer-v2-explorer:options';
const SELECTED_EVENT = 'trainer-v2-explorer:selected';
/** The options that make the selection (explorer-core's query::own_keys), in the URL's syntax. */
export const SELECTION_OPTIONS = ['persona', 'framework', 'scope', 'mode', 'release', 'name', 'namespace', 'nodes', 'gpus', 'procs', 'image', 'queue', 'model', 'dataset'];
/** The options that shape an instance itself: a change mounts it anew. */
const INSTANCE_OPTIONS = ['compact', 'sync', 'theme'];
const OPTIONS = [...SELECTION_OPTIONS, ...INSTANCE_OPTIONS];

let assets = null;
let loading;
let converter;
let dead = false;
let started = false;
let readerActed = false;
let nearby;
const isTrap = (err) => typeof WebAssembly === 'object' && err instanceof WebAssembly.RuntimeError;
/** Each attached host: the selection it shows (as the wasm last announced it). */
const attached = new Map();

/** A host's option: `persona` on the element, `data-persona` on a mount point. */
const optionOf = (host, name) => host.getAttribute(host.hasAttribute(ALIAS) ? `data-${name}` : name);

function assetsUrl(host) {
  const set = assets ?? optionOf(host, 'assets');
  return set ? new URL(set, document.baseURI).href.replace(/\/?$/, '/') : null;
}

// The widget, and the V1 → V2 converter as a second module that only readers who open migrate
// mode download (pkg-migrate/converter.js runs it in a worker). "What Kubernetes runs" and
// "Upgrading from an older release" come from the same module, loaded when first opened.
// Literal paths, so that bundlers (webpack, Vite, Rollup) follow them; the ignore comments keep
// them from bundling the URLs a page set.
function load(host) {
  loading ??= (() => {
    const base = assetsUrl(host);
    const widget = base ? import(/* webpackIgnore: true */ /* @vite-ignore */ `${base}pkg/trainer_v2_explorer.js`) : import('./pkg/trainer_v2_explorer.js');
    const converterModule = () =>
      (converter ??= base ? import(/* webpackIgnore: true */ /* @vite-ignore */ `${base}pkg-migrate/converter.js`) : import('./pkg-migrate/converter.js'));
    return widget.then(async (m) => {
      await m.default();
      watchForFailure();
      m.setMigrator((text, release, onProgress) => converterModule().then((c) => c.convert(text, release, onProgress)));
      m.setExplainer((details) =>
        converterModule().then(
          (c) => c.showPane(details),
          (err) => (details.querySelector('.pane-body').textContent = `The converter did not load: ${err}`),
        ),
      );
      return m;
    });
  })();
  return loading;
}

// Shows the host's static fallback again: its light-DOM children, through a bare <slot> in
// place of the widget. Pure DOM work, so it runs after the module has trapped.
function showFallback(host) {
  host.removeAttribute(MOUNTED);
  host.setAttribute(FAILED, '');
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
  for (const host of attached.keys()) showFallback(host);
}

// A panic tells us through its hook, before the trap. A trap without a panic (an aborted
// allocation) reaches the page as an uncaught WebAssembly.RuntimeError. The browser does not say
// which module trapped; a trap in another module on the page costs the reader the widget's
// controls, never its snippets.
function watchForFailure() {
  addEventListener(FAILED_EVENT, (e) => fail(e.detail));
  addEventListener('error', (e) => isTrap(e.error) && fail(e.error));
  addEventListener('unhandledrejection', (e) => isTrap(e.reason) && fail(e.reason));
}

// A link to a heading (#id) must land there even when a widget above it changes height as it
// mounts: until the reader scrolls or acts on the page, each mount puts the fragment back in
// place. A link that carries a selection (a shared link, the post's "Migrate a V1 job") is about
// the explorer: without a #fragment, the page opens at the main explorer. The keys are the
// widget's own: a host's own query (Sphinx's ?highlight=) moves nothing.
function landing() {
  if (location.hash.length < 2) {
    const own = new RegExp(`[?&](${SELECTION_OPTIONS.join('|')})=`);
    return own.test(location.search) ? [...attached.keys()].find((host) => optionOf(host, 'compact') === null) : null;
  }
  try {
    return document.getElementById(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return null;
  }
}
function restoreFragment() {
  if (!readerActed) landing()?.scrollIntoView();
}

function start() {
  if (started) return;
  started = true;
  for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {
    addEventListener(type, () => (readerActed = true), { capture: true, passive: true, once: true });
  }
  // Once every host already on the page is attached (define.js attaches them all at once).
  queueMicrotask(restoreFragment);
}

// A keyboard reader faster than the download is on the fallback (a code block) when the widget
// mounts over it: that element leaves the page's rendering, and focus with it. Focus goes to the
// widget's first control instead, so the next Tab walks on through the widget.
function keepFocus(host) {
  const lost = document.activeElement;
  if (lost !== document.body && !host.contains(lost)) return; // the reader moved on meanwhile
  host.shadowRoot?.querySelector('[tabindex="0"]')?.focus(); // a radio group's checked radio
}

// A widget takes more room than its fallback (its controls, a legend, wrapped lines at phone
// width), and it mounts wherever the reader has scrolled to meanwhile. The browser's scroll
// anchoring keeps what the reader sees in place when that room comes in, provided the node it
// anchors to is not in the host that mounts: with the host or its fallback as the anchor (Chrome
// picks it when the host reaches into the viewport), the host grows at its bottom and the text
// after it jumps down (377 px at 375 px wide, session 11). So a host is no anchor while its own
// widget mounts, until that widget has been drawn once; only then. A host kept out of anchoring
// from the start left nothing to anchor to while the reader read its fallback, taller than the
// viewport, and a widget mounting above pushed that fallback down by the room it gained (0.4204,
// the CI run of 7547491). Setting the property also drops the anchor the browser had picked, so
// the next layout picks one outside the host. Set on the host's own style, so every page that
// embeds the widget gets it without a stylesheet of ours.
const unanchored = new WeakSet();
function excludeFromAnchoring(host) {
  if (host.style.getPropertyValue('overflow-anchor')) return; // a page's own choice stays
  host.style.setProperty('overflow-anchor', 'none');
  unanchored.add(host);
}
function anchorAgain(host) {
  if (unanchored.delete(host)) host.style.removeProperty('overflow-anchor');
}

// Widgets mount one per frame. After a fast scroll past two hosts while the wasm downloaded,
// both mounted in one frame, and the lower one, reaching into the viewport, moved twice at once:
// down the page by the room the upper one gained, and up the viewport by its own (the anchor
// being the text after it). A node that moves in both is a layout shift, though the reader's text
// stayed; one mount a frame moves it in one only. A turn ends once the frame that lays its widget
// out has been drawn, and the host may then be an anchor again.
let turn = Promise.resolve();
function inTurn(host, mountNow) {
  const mounted = turn.then(mountNow);
  turn = mounted
    .then((done) => done && drawn(host), () => {}) // a failed mount ends its turn too
    .then(() => anchorAgain(host));
  return mounted;
}

// Resolves after the frame that lays `host` out has been drawn: a ResizeObserver's first answer
// comes after that frame's layout, and a message posted then is handled after its paint. Two
// animation frames do the same where a host is not rendered (no answer comes); alone they were
// not enough, since a test's fake clock (Playwright's clock.install) stops them, and with them
// every mount after the first.
function drawn(host) {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(resolve));
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
    observer.observe(host);
  });
}

// Yew renders a widget in a microtask after m.mount, unless its scheduler is waiting on a timer
// already: after 16 ms of work it yields to the browser (yew 0.23, scheduler.rs) and goes on when
// the timer fires, so a widget mounted meanwhile renders only then. A frame drawn before that
// showed the host's shadow root empty: its fallback gone, the host at its min-height (or none),
// the text after it moving up and back down (the rare "nothing moves" failures under load). So
// the fallback stays in view, through a slot beside the widget's root, until the widget's first
// render changes the shadow root (or an unmount or a failure replaces what it holds). Usually
// that is the same task, and no frame shows the slot. Resolves once the slot is gone, with
// whether focus was in the fallback it took away: a keyboard reader may have reached the
// fallback while a late first render was awaited.
function mountKeepingFallback(m, host) {
  m.mount(host);
  const shadow = host.shadowRoot;
  const fallback = document.createElement('slot');
  shadow.prepend(fallback);
  return new Promise((resolve) => {
    const rendering = new MutationObserver(() => {
      const focused = host.contains(document.activeElement);
      rendering.disconnect();
      fallback.remove();
      resolve(focused);
    });
    rendering.observe(shadow, { childList: true, subtree: true });
  });
}

function mount(host) {
  load(host)
    .then((m) =>
      // A host mounted already (detached and attached again while the wasm loaded) renders
      // nothing new, so its turn ends here.
      inTurn(host, async () => {
        if (dead || !attached.has(host) || host.hasAttribute(MOUNTED)) return false;
        excludeFromAnchoring(host);
        const focused = await mountKeepingFallback(m, host);
        // By the next frame the widget's controls are there.
        requestAnimationFrame(() => {
          restoreFragment();
          if (focused) keepFocus(host);
        });
        return true;
      }),
    )
    .catch((err) => {
      if (isTrap(err)) return fail(err);
      console.warn('Trainer V2 Explorer did not load; showing the static snippets.', err);
      showFallback(host);
    });
}

// The wasm announces the selection a host shows, on mount and on each change it shows (the
// reader's, an option's, or a choice another instance shared with it); the host page hears of
// every change after the first as a `change` event (bubbling, composed) whose detail is the
// selection, with the options' names and values. A shared choice fires on each element that
// shows it: the one clicked, then each receiving one. Only a new selection fires, so a listener
// that sets the same option again starts no loop.
function announced(event) {
  const host = event.currentTarget;
  const selection = Object.fromEntries(new URLSearchParams(event.detail));
  const before = attached.get(host);
  attached.set(host, selection);
  if (before && JSON.stringify(before) !== JSON.stringify(selection)) {
    host.dispatchEvent(new CustomEvent('change', { bubbles: true, composed: true, detail: selection }));
  }
}

/** The observer's margin: a host this close to the viewport mounts. */
const NEAR_PX = 600;
/** Whether a host laid out in `box` is within NEAR_PX of the viewport: where it mounts at once. */
const within = (box) => (box.width > 0 || box.height > 0) && box.bottom >= -NEAR_PX && box.top <= innerHeight + NEAR_PX;
/** Whether `host` is laid out within NEAR_PX of the viewport. */
export const near = (host) => within(host.getBoundingClientRect());

/** Starts the widget in `host` once it nears the viewport. Attaching twice is a no-op. */
export function attach(host) {
  if (attached.has(host)) return;
  start();
  attached.set(host, null);
  host.addEventListener(SELECTED_EVENT, announced);
  if (dead) return;
  if (!('IntersectionObserver' in window)) return mount(host);
  // A host already near the viewport once the page is parsed (a reader who landed on the
  // explorer) mounts now: the observer's first answer waits for the next frame, and the widget's
  // download for it. It is measured after start()'s microtask (queued before this one), which
  // scrolls to where the reader landed: measured at the top of the page, the explorer a reader
  // landed on was far off, and waited for the observer. While the parser runs, the observer
  // alone decides: measuring then would lay out a half-parsed page.
  if (document.readyState === 'loading') observeUntilNear(host);
  else queueMicrotask(() => attached.has(host) && !dead && mountInReadingOrder(host));
}

// Hosts near the viewport take their turns (inTurn) in the order a reader meets them from where
// they landed: those in the viewport and below it in the document's order, top to bottom, since
// a reader reads down; a host above the viewport, behind the reader, after them (its mount waits
// for the other hosts' measuring microtasks, queued with its own). Landing on #user-experience,
// the compact preset that ends just above the viewport came first in the document: it took the
// first turn, and the main explorer below it, where the reader reads on, waited for the preset's
// first render and the frame that drew it (BENCHMARKS.md, "the widget a reader heads to mounts
// first"). Only the order changes: every host near the viewport still mounts, one per frame.
// A host measured not near waits for the observer: its box is read once, for both answers.
function mountInReadingOrder(host) {
  const box = host.getBoundingClientRect();
  if (!within(box)) observeUntilNear(host);
  else if (box.bottom > 0) mount(host);
  else queueMicrotask(() => mount(host));
}

/** Mounts `host` once it comes within NEAR_PX of the viewport. */
function observeUntilNear(host) {
  nearby ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          nearby.unobserve(entry.target);
          mount(entry.target);
        }
      }
    },
    { rootMargin: `${NEAR_PX}px 0px` },
  );
  nearby.observe(host);
}

/** Stops the widget in `host` and frees what it held; its fallback shows again. */
export function detach(host) {
  if (!attached.has(host)) return;
  attached.delete(host);
  nearby?.unobserve(host);
  host.removeEventListener(SELECTED_EVENT, announced);
  anchorAgain(host);
  if (host.hasAttribute(MOUNTED)) loading.then((m) => m.unmount(host));
}

/** An option of an attached host changed: a selection option applies to what it shows (and is
 * published like the reader's own change); an instance option mounts it anew. A removed
 * selection option leaves the selection as it is. */
function optionChanged(host, name, value) {
  if (!host.hasAttribute(MOUNTED) || dead) return;
  if (INSTANCE_OPTIONS.includes(name)) {
    loading.then((m) => {
      m.unmount(host);
      if (attached.has(host)) mountKeepingFallback(m, host);
    });
  } else if (value !== null) {
    host.dispatchEvent(new CustomEvent(OPTIONS_EVENT, { detail: `${name}=${encodeURIComponent(value)}` }));
  }
}

let watching = false;
/** Attaches every [data-trainer-v2-explorer] mount point on the page, now and as they are added,
 * follows their data-* options, and detaches those removed. */
export function watchMountPoints() {
  if (watching) return;
  watching = true;
  const withAlias = (node) => (node.nodeType === 1 ? [...(node.matches(`[${ALIAS}]`) ? [node] : []), ...node.querySelectorAll(`[${ALIAS}]`)] : []);
  const observer = new MutationObserver((records) => {
    let removed = false;
    for (const r of records) {
      if (r.type === 'attributes') {
        if (r.attributeName === ALIAS) r.target.hasAttribute(ALIAS) ? attach(r.target) : detach(r.target);
        else if (r.target.hasAttribute(ALIAS)) optionChanged(r.target, r.attributeName.slice(5), r.target.getAttribute(r.attributeName));
        continue;
      }
      r.addedNodes.forEach((n) => withAlias(n).forEach(attach));
      removed ||= r.removedNodes.length > 0;
    }
    // A moved mount point is connected again by now, and keeps its instance.
    if (removed) for (const host of attached.keys()) if (!host.isConnected && host.hasAttribute(ALIAS)) detach(host);
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: [ALIAS, ...OPTIONS.map((o) => `data-${o}`)] });
  withAlias(document.documentElement).forEach(attach);
}

const Base = typeof HTMLElement === 'function' ? HTMLElement : class {}; // server-side rendering imports it too

/**
 * `<trainer-v2-explorer persona="data-scientist" framework="jax" release="v2.3" compact>`: the
 * explorer as an element. Its children are the static fallback. Register it with define.js, or
 * under a name of your own: `customElements.define('my-explorer', TrainerV2Explorer)`.
 */
export class TrainerV2Explorer extends Base {
  static observedAttributes = OPTIONS;

  /** Where the widget's files (pkg/, pkg-migrate/) are served, when not next to this module; set
   * before the first element mounts. The `assets` attribute of the first element does the same. */
  static get assets() {
    return assets;
  }
  static set assets(url) {
    if (loading) console.warn('Trainer V2 Explorer: assets set after the widget loaded; it applies on the next page load.');
    assets = url ? String(url) : null;
  }

  connectedCallback() {
    attach(this);
  }

  disconnectedCallback() {
    // A moved element is connected again by the next microtask, and keeps its instance.
    queueMicrotask(() => this.isConnected || detach(this));
  }

  attributeChangedCallback(name, old, value) {
    if (old !== value) optionChanged(this, name, value);
  }

  /** The selection the element shows, with the options' names and values; null before it mounts. */
  get selection() {
    return attached.get(this) ?? null;
  }

  get compact() {
    return this.hasAttribute('compact');
  }
  set compact(on) {
    this.toggleAttribute('compact', Boolean(on));
  }
}

// One property per option: reads what the element shows (its attribute until it mounts), sets
// the attribute.
for (const name of [...SELECTION_OPTIONS, 'sync', 'theme']) {
  Object.defineProperty(TrainerV2Explorer.prototype, name, {
    get() {
      return attached.get(this)?.[name] ?? this.getAttribute(name);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
    configurable: true,
  });
}
