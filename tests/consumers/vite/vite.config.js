import { defineConfig } from 'vite';

export default defineConfig({
  // The dev server pre-bundles dependencies into node_modules/.vite, away from the package's
  // wasm: served as it is published, the element finds its files next to itself.
  optimizeDeps: { exclude: ['trainer-v2-explorer'] },
  // The converter runs in a module worker that imports its wasm glue.
  worker: { format: 'es' },
});
