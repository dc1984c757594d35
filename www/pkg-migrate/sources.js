// "What Kubernetes runs", linked (crates/html/src/explain_view.rs `linked_html`): each item names the lines
// of the TrainJob or runtime it comes from (data-src="t:12 r:30": document, 1-based line). Hovering,
// focusing or clicking an item highlights those lines in the YAML shown beside it, scrolls the
// first into view inside that YAML box (never the page), and says which lines they are in a live
// region. Plain JS, so the widget's wasm carries none of it; the converter module's panes and the
// post's static presets both use it.

const linked = new WeakSet();

/** Follows the items of every linked view under `root` (now and later: it delegates); call it
 * again after new HTML arrives, to show its hint. */
export function linkSources(root) {
  if (!root) return;
  for (const hint of root.querySelectorAll('.k8s-hint[hidden]')) hint.hidden = false;
  if (linked.has(root)) return;
  linked.add(root);
  const show = (event) => {
    const item = event.target.closest?.('[data-src]');
    if (item && root.contains(item)) highlight(item);
  };
  root.addEventListener('pointerover', show);
  root.addEventListener('focusin', show);
  root.addEventListener('click', show);
}

/** Highlights the lines `item` names, and only those. */
export function highlight(item) {
  const view = item.closest('.k8s-linked');
  if (!view) return;
  if (item.classList.contains('on')) return;
  for (const el of view.querySelectorAll('.ln.hl, [data-src].on')) el.classList.remove('hl', 'on');
  item.classList.add('on');
  const box = view.querySelector('.k8s-yaml');
  const said = [];
  let first;
  for (const ref of item.dataset.src.split(' ')) {
    const [doc, n] = ref.split(':');
    const figure = view.querySelector(`.k8s-yaml figure[data-doc="${doc}"]`);
    const line = figure?.querySelectorAll('.ln')[Number(n) - 1];
    if (!line) continue;
    line.classList.add('hl');
    first ??= line;
    said.push(`${figure.querySelector('figcaption').textContent} line ${n}: ${line.textContent.trim()}`);
  }
  if (first && box) {
    // Scroll the YAML box only: the reader's place on the page stays where it is.
    const top = first.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTo({ top: Math.max(0, top - box.clientHeight / 3), behavior: 'instant' });
  }
  const live = view.querySelector('.k8s-live');
  if (live) live.textContent = said.join('; ');
}
