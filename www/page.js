// The post's theme switch: auto (follow the system), dark, light. It sets data-theme on <html>,
// the same signal Kubeflow's docs use, and the explorer widgets follow it.
const button = document.querySelector('.theme-toggle');
const order = ['auto', 'dark', 'light'];

function stored() {
  try {
    return localStorage.getItem('theme') ?? 'auto';
  } catch {
    return 'auto';
  }
}

function apply(theme) {
  if (theme === 'auto') {
    document.documentElement.removeAttribute('data-theme');
  } else {
    document.documentElement.setAttribute('data-theme', theme);
  }
  if (button) button.textContent = `Theme: ${theme}`;
}

let theme = stored();
apply(theme);
if (button) {
  button.hidden = false;
  button.addEventListener('click', () => {
    theme = order[(order.indexOf(theme) + 1) % order.length];
    apply(theme);
    try {
      localStorage.setItem('theme', theme);
    } catch {
      // Storage unavailable: the choice lasts for this page view.
    }
  });
}
