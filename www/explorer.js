// The loader the post and the three kits include: the element and its mount points (define.js),
// and what a page of ours adds around them.
import './define.js';
import { ALIAS, FAILED, MOUNTED, near } from './element.js';

const here = (path) => new URL(path, import.meta.url).href;

// The "What Kubernetes runs" figures of a page (the post's presets, and the blog's copy of them)
// are static HTML from the core; with JavaScript their items also highlight the TrainJob and
// runtime lines they come from. Here, and not in the post's page.js, so every host gets it.
// Both wait until each widget the loader mounts at once (those near the viewport) has mounted or
// failed, then for an idle moment: a reader who landed on a widget waits for it first, and their
// changes to the page (a button on every code block) lay it out again. An idle moment alone came
// while the widget downloaded, and that layout then held up its mount.
const MOUNT_POINT = `[${ALIAS}], trainer-v2-explorer`;
const SETTLED = [MOUNTED, FAILED];
const idle = (f) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 0));
// Those element.js mounts as the page loads (near the viewport).
const waiting = () => [...document.querySelectorAll(MOUNT_POINT)].filter((el) => !SETTLED.some((a) => el.hasAttribute(a)) && near(el));
// Asked after the loader's own first microtask, which scrolls to the page's #fragment.
const widgetsSettled = new Promise((resolve) => queueMicrotask(resolve)).then(() => new Promise((resolve) => {
  const pending = waiting();
  if (!pending.length) return resolve();
  const observer = new MutationObserver(() => {
    if (pending.every((el) => SETTLED.some((a) => el.hasAttribute(a)))) {
      observer.disconnect();
      resolve();
    }
  });
  for (const el of pending) observer.observe(el, { attributes: true, attributeFilter: SETTLED });
  // A download that never ends must not cost the page its Copy buttons.
  setTimeout(resolve, 10000);
}));
const afterWidgets = (f) => widgetsSettled.then(() => idle(f));
if (document.querySelector('.k8s-linked')) {
  afterWidgets(() => import(here('./pkg-migrate/sources.js')).then((m) => m.linkSources(document.body)));
}
// The post (here and in the blog's copy) marks its body: its own code blocks get a Copy button.
const post = document.querySelector('[data-trainer-v2-post]');
if (post) afterWidgets(() => import(here('./pkg-migrate/copy-blocks.js')).then((m) => m.addCopyButtons(post.parentElement)));
