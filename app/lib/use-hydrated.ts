import { useEffect, useState } from "react";

/** False on the server and in the first browser render, true once React runs: JS-only controls switch on then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
