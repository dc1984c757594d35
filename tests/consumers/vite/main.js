import 'trainer-v2-explorer/define.js';

// The page reacts to the reader's choice: the element's change event carries the selection.
const said = document.querySelector('#selection');
document.addEventListener('change', (event) => {
  if (event.target.localName === 'trainer-v2-explorer') said.textContent = `${event.detail.persona}, ${event.detail.framework}`;
});
