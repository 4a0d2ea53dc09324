import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The staff console (docs/console.md): Preact, built into dist/console and served by the service at
// /console. `npm run build` builds it; `npx vite --config console/vite.config.ts` serves it with
// live reload against an API on :3000.
const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
