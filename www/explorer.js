// The loader the post and the three kits include: the element and its mount points (define.js),
// and what a page of ours adds around them.
import './define.js';

const here = (path) => new URL(path, import.meta.url).href;

// The "What Kubernetes runs" figures of a page (the post's presets, and the blog's copy of them)
// are static HTML from the core; with JavaScript their items also highlight the TrainJob and
// runtime lines they come from. Here, and not in the post's page.js, so every host gets it.
// Both wait for an idle moment: a reader who landed on a widget waits for it first, and their
// changes to the page (a button on every code block) would lay it out again before it mounts.
const idle = (f) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 0));
if (document.querySelector('.k8s-linked')) {
  idle(() => import(here('./pkg-migrate/sources.js')).then((m) => m.linkSources(document.body)));
}
// The post (here and in the blog's copy) marks its body: its own code blocks get a Copy button.
const post = document.querySelector('[data-trainer-v2-post]');
if (post) idle(() => import(here('./pkg-migrate/copy-blocks.js')).then((m) => m.addCopyButtons(post.parentElement)));
