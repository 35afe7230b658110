/**
 * Server-only zod set-up, kept out of api/domain/fields.ts because that module is in the browser bundle
 * (docs/performance.md 'JS budget'). Imported for its effect by api/lib/list-query.ts, which every API build
 * loads; zod's configuration is global to the process, so it holds for the API's full-zod schemas, the zod/mini
 * field rules and the web app's actions alike.
 */
import { ptBR } from "zod/locales";
import * as z from "zod/mini";

// Any message a rule does not set itself (a missing or mistyped field in a request) is Portuguese. The browser's
// schemas set every message a form can trigger, so the browser does without the locale (4 KB).
z.config(ptBR());

// The API's OpenAPI generator (zod-to-openapi) reads full zod's accessors, which zod/mini schemas lack: `meta()` (the
// global registry's entry) and a string's `minLength`/`maxLength` (read here from its length checks), so
// /api/openapi.json documents these fields as before. They go on each zod/mini class's own prototype, read through
// the prototype chain: zod copies ZodMiniType.prototype's members onto a schema when it is made, so a patch there
// would miss every schema made before this module ran (a domain module imported first, e.g. by a test).
function registryEntry(this: z.core.$ZodType) {
  return z.globalRegistry.get(this);
}
for (const value of Object.values(z)) {
  if (typeof value !== "function" || !("init" in value) || !value.prototype || "meta" in value.prototype) continue;
  Object.defineProperty(value.prototype, "meta", { value: registryEntry, configurable: true, writable: true });
}
if (!("minLength" in z.ZodMiniString.prototype)) {
  Object.defineProperties(z.ZodMiniString.prototype, {
    minLength: { get: lengthCheck("min_length", "minimum") },
    maxLength: { get: lengthCheck("max_length", "maximum") },
  });
}
function lengthCheck(check: "min_length" | "max_length", key: "minimum" | "maximum") {
  return function (this: z.core.$ZodString) {
    let value: number | null = null;
    for (const { _zod } of this._zod.def.checks ?? []) {
      const def = _zod.def as { check: string; minimum?: number; maximum?: number };
      if (def.check === check) value = def[key] ?? null;
    }
    return value;
  };
}
