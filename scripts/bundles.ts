// The two esbuild bundles `npm run build` writes (package.json: build:workers, build:server) and
// `npm start` runs; the benchmarks spawn the same workers bundle (docs/decisions/089-compiled-workers.md).
export const WORKERS_BUNDLE = "build/workers/main.mjs";
export const WEB_BUNDLE = "build/server.mjs";
