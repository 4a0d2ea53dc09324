// The demo data lives in src/lib/demo-data.ts (the OpenAPI examples read it too, and src/lib does
// not import from src/cli). This re-export keeps the tests' and helpers' imports working.
export * from '../lib/demo-data.ts'
