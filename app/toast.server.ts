import { redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { cookieStorage } from "./lib/cookie-storage.server";

/** Toasts travel in their own flash cookie: set before a redirect, read once by the root loader. */
export const ToastSchema = z.object({
  id: z.string(),
  type: z.enum(["info", "success", "error"]),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = Omit<Toast, "id" | "type"> & { type?: Toast["type"] };

const toastStorage = (context: AppLoadContext) => cookieStorage(context, "toast");

export async function toastCookie(context: AppLoadContext, toast: ToastInput) {
  const storage = toastStorage(context);
  const session = await storage.getSession();
  session.flash("toast", { id: crypto.randomUUID(), type: "info", ...toast } satisfies Toast);
  return storage.commitSession(session);
}

export async function redirectWithToast(context: AppLoadContext, url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("set-cookie", await toastCookie(context, toast));
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request, context: AppLoadContext) {
  const storage = toastStorage(context);
  const session = await storage.getSession(request.headers.get("cookie"));
  const parsed = ToastSchema.safeParse(session.get("toast"));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: parsed.success ? { "set-cookie": await storage.destroySession(session) } : undefined,
  };
}
