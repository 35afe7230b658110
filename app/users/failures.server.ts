import type { ApiFailure } from "~/api.server";
import type { ToastInput } from "~/toast.server";

/**
 * The toast of an API refusal (spec 000 §8 'Users'): the title, and the server's reason as description; a server
 * fault (5xx) gets `fallback` instead of the generic text.
 */
export function failureToast(failure: ApiFailure, title: string, fallback: string): ToastInput {
  return { type: "error", title, description: failure.status >= 500 ? fallback : failure.message };
}

/** The API's field names as the forms name them (the contract's filiaId / filialId is the form's filialId). */
export function formFieldErrors(failure: ApiFailure) {
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(failure.fieldErrors ?? {})) {
    const field = name === "filiaId" ? "filialId" : name;
    errors[field] = [...(errors[field] ?? []), ...messages];
  }
  return errors;
}
