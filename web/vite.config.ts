import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The customer web app (docs/web.md): Preact, built into dist/web and served by the service at /.
// `npm run build` builds it; `npx vite --config web/vite.config.ts` serves it with live reload
// against an API on :3000.
const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { port: 5174, proxy: { '/api': 'http://127.0.0.1:3000', '/storage': 'http://127.0.0.1:3000' } },
})
