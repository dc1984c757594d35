// Registers <trainer-v2-explorer> (once) and starts the [data-trainer-v2-explorer] mount points.
import type { TrainerV2Explorer } from './element.js';

declare global {
  interface HTMLElementTagNameMap {
    'trainer-v2-explorer': TrainerV2Explorer;
  }
}

export {};
