// A Copy button on every code block of the post itself (helm install, pip install, the YAML of
// its figures), as the widget's panes have. The post marks its body with an empty
// [data-trainer-v2-post] element, so a host's own pages and code blocks are never touched; the
// widgets' fallbacks are not the post's blocks (the widget that replaces them has its own Copy).
// Loaded by explorer.js only on a page that has the mark; plain JS, outside the widget's wasm.
// converter.js uses `copy` for the Copy buttons of migrate mode's output.

const MOUNT = '[data-trainer-v2-explorer]';

/** What the reader sees in the block, line for line (the text a selection would copy). */
const shown = (pre) => pre.innerText.replace(/\n$/, '');

/** Copies `text` (the code of `pre`); true when it reached the clipboard. */
export async function copy(text, pre) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an http page, an old browser): the selection and the copy command.
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    const ok = document.execCommand('copy');
    selection.removeAllRanges();
    return ok;
  }
}

export function addCopyButtons(post) {
  const status = document.createElement('span');
  status.className = 'copy-block-status';
  status.setAttribute('role', 'status');
  post.append(status);
  for (const pre of post.querySelectorAll('pre')) {
    if (pre.closest(MOUNT)) continue;
    // The button sits on the block, at its top right, in a box of its own; a figure's caption
    // (read by other scripts and tests as it is) only names it.
    const figure = pre.closest('figure');
    const caption = figure?.querySelectorAll('pre').length === 1 ? figure.querySelector(':scope > figcaption') : null;
    const name = caption?.textContent.trim() || pre.querySelector('code')?.textContent.trim().split('\n')[0] || 'code';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-block';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', `Copy ${name}`);
    let reset;
    button.addEventListener('click', async () => {
      const ok = await copy(shown(pre), pre);
      button.textContent = ok ? 'Copied' : 'Select and copy';
      status.textContent = ok ? `Copied ${name}` : 'Copy failed: select the code and press Ctrl+C';
      clearTimeout(reset);
      reset = setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
    const box = document.createElement('div');
    box.className = 'copy-block-host';
    pre.before(box);
    box.append(button, pre);
  }
}
