// Registers <trainer-v2-explorer> and starts the [data-trainer-v2-explorer] mount points: the
// one module of the package with a side effect. A page that registers the element under a name
// of its own imports TrainerV2Explorer from element.js instead.
import { TrainerV2Explorer, watchMountPoints } from './element.js';

if (typeof customElements === 'object') {
  if (!customElements.get('trainer-v2-explorer')) customElements.define('trainer-v2-explorer', TrainerV2Explorer);
  watchMountPoints();
}
