/**
 * The embedded database's worker thread starts here (api/db/pglite-worker.ts): plain JavaScript that gives the
 * thread tsx's loader, then loads the TypeScript worker. A worker gets no module loader from its parent (neither
 * npm start's `--import tsx` on Node 20 nor vitest's), and the worker shares pglite-statements.ts and
 * embedded-dump.ts with the in-thread path. Messages that come meanwhile wait on the port until it listens.
 */
import { register } from "tsx/esm/api";

register();
await import("./pglite-worker-thread.ts");
