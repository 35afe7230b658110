import { getInputProps, parse, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect, useId, useMemo, useState, type InputHTMLAttributes, type ReactNode } from "react";
import type * as z from "zod/mini";
import { safeParse } from "zod/v4/core";

import { applyMask, type MaskName } from "../../api/domain/masks";

import { useHydrated } from "~/lib/use-hydrated";
import type { ToastInput } from "~/toast.server";

import { ToastView } from "./toaster";

export const BLANK_FIELDS_TOAST: ToastInput = {
  type: "error",
  title: "Campos em branco",
  description: "Existem campos obrigatórios não preenchidos.",
};

/** What every form action answers when it does not redirect: conform's reply and the toast to show. */
export type FormActionData = { result?: SubmissionResult<string[]>; toast?: ToastInput | null; warnings?: string[] };

/**
 * conform + zod for one form: instant validation with JS, the same schema in the action without it. A submit that
 * fails in the browser shows the same toast the server would (`invalidToast`).
 */
export function useValidatedForm<Schema extends z.core.$ZodType>(
  schema: Schema,
  actionData: FormActionData | undefined,
  options: { id?: string; invalidToast?: ToastInput; defaultValue?: Record<string, unknown> } = {},
) {
  // Fields are typed as text: every form here posts strings, and the schema gives the typed value in the action.
  // Auto-coercion is off (here and in every action): it turns '' into undefined inside our preprocess pipes, which
  // replaced the spec's messages ('E-mail obrigatório') with zod's 'expected string, received undefined'.
  const [form, fields] = useForm<Record<string, string>>({
    id: options.id,
    lastResult: actionData?.result,
    defaultValue: options.defaultValue as Record<string, string> | undefined,
    // Not on blur: a message appearing on blur moves the submit button under the pointer between mousedown and
    // mouseup, and the user's click on it is lost (the form then neither submits nor shows its toast).
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => validateInBrowser(formData, schema),
  });
  const [clientToast, setClientToast] = useState<ToastInput | null>(null);
  useEffect(() => setClientToast(null), [actionData]);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    form.onSubmit(event);
    // conform validates a field on blur by submitting with its own '__intent__' button: not a user's submit.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("name") === "__intent__") return;
    // A fresh object each time: a second failed submit shows the toast again after the first one closed.
    if (event.defaultPrevented) setClientToast({ ...(options.invalidToast ?? BLANK_FIELDS_TOAST) });
  };
  const toast = clientToast ?? actionData?.toast ?? null;
  return { form, fields, onSubmit, toast };
}

/**
 * What conform's `parseWithZod` does with auto-coercion off (actions still use it), without importing it: its
 * coercion module pulls full zod into the browser bundle (docs/performance.md 'JS budget'). Each field gets the
 * messages of its issues; the schema's own messages are the live ones.
 */
function validateInBrowser(formData: FormData, schema: z.core.$ZodType) {
  return parse(formData, {
    resolve(payload) {
      const result = safeParse(schema, payload);
      if (result.success) return { value: result.data as Record<string, string> };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = issue.path
          .map((part, index) => (typeof part === "number" ? `[${part}]` : index ? `.${String(part)}` : String(part)))
          .join("");
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  });
}

/** An action's (or a failed browser check's) toast; the same toast object is shown once, a new one shows again. */
export function FormToast({ toast }: { toast: ToastInput | null | undefined }) {
  const view = useMemo(() => (toast ? { type: "info" as const, ...toast } : null), [toast]);
  if (!view) return null;
  return <ToastView toast={view} />;
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors">
      {errors.map((error) => (
        <li key={error}>
          <span aria-hidden="true" className="error-icon">
            !
          </span>{" "}
          {error}
        </li>
      ))}
    </ul>
  );
}

type FieldProps = {
  label: string;
  meta: FieldMetadata<string>;
  type?: "text" | "email" | "password" | "tel" | "date" | "number";
  mask?: MaskName;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
};

/** A labelled input with its inline errors; masks format as the user types (and the server normalises anyway). */
export function Field({ label, meta, type = "text", mask, hint, inputProps }: FieldProps) {
  // E-mail stays type=text: the browser's own e-mail check would block the server's messages without JS.
  const props = getInputProps(meta, { type: type === "email" ? "text" : (type as "text") });
  const { key, ...rest } = props;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input
        key={key}
        {...rest}
        {...inputProps}
        onInput={
          mask
            ? (event) => {
                const input = event.currentTarget;
                input.value = applyMask(mask, input.value);
              }
            : inputProps?.onInput
        }
        inputMode={mask ? "numeric" : type === "email" ? "email" : inputProps?.inputMode}
        maxLength={mask ? undefined : inputProps?.maxLength}
      />
      {hint}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** Password input with a show/hide toggle (the toggle needs JS; without it the field stays masked). */
export function PasswordField({
  label,
  meta,
  autoComplete,
}: {
  label: string;
  meta: FieldMetadata<string>;
  autoComplete: string;
}) {
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  const toggleId = useId();
  const { key, ...props } = getInputProps(meta, { type: "password" });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <div className="password-input">
        <input key={key} {...props} type={shown ? "text" : "password"} autoComplete={autoComplete} />
        {hydrated ? (
          <button
            id={toggleId}
            type="button"
            className="password-toggle"
            aria-pressed={shown}
            aria-label={shown ? "Ocultar senha" : "Mostrar senha"}
            onClick={() => setShown((value) => !value)}
          >
            {shown ? "Ocultar" : "Mostrar"}
          </button>
        ) : null}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
