/**
 * Stops a loader or action with an HTTP answer when a condition fails (the route's ErrorBoundary shows it):
 * `invariantResponse(item, "Setor não encontrado", { status: 404 })`.
 */
export function invariantResponse(
  condition: unknown,
  message: string,
  init: ResponseInit & { status: number },
): asserts condition {
  if (!condition) throw new Response(message, { ...init, headers: { "content-type": "text/plain; charset=utf-8" } });
}
