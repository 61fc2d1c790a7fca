import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import solid from 'vite-plugin-solid';

export default defineConfig({
  main: {
    build: {
      // Inside the bundle, TypeBox and zod (many small files each) load faster in the tool host.
      externalizeDeps: { exclude: ['@sinclair/typebox', 'zod'] },
      // The module tool host runs as its own Node process (sources/module/host-launch.ts).
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          'module-host': resolve(__dirname, 'electron/runtime/sources/module/host/main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload (sandbox: true) cannot be an ES module: emit one CommonJS file.
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [solid()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
