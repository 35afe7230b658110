import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";

import { emailWarnings } from "../../api/domain/fields";

import { SignInRefused, authenticator } from "~/auth.server";
import { AuthLayout } from "~/components/auth-layout";
import { Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { SIGN_IN_FAILED } from "~/lib/auth-messages";
import { SignInSchema } from "~/lib/schemas";
import { createUserSession, homeOf, requireAnonymous, safeRedirectTo } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Entrar | Limpeza" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return { redirectTo: redirectTo ? safeRedirectTo(redirectTo) : "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.clone().formData();
  try {
    const session = await authenticator(context).authenticate("form", request);
    const target = safeRedirectTo(form.get("redirectTo"), homeOf(session.user));
    return redirect(target, { headers: { "set-cookie": await createUserSession(context, session) } });
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    return data<FormActionData>(
      {
        result: error.result,
        toast: error.toast ?? SIGN_IN_FAILED,
        warnings: emailWarnings(String(form.get("email") ?? "")),
      },
      { status: error.toast.type === "info" ? 403 : 400 },
    );
  }
}

export default function SignIn() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, onSubmit, toast } = useValidatedForm(SignInSchema, actionData, {
    invalidToast: SIGN_IN_FAILED,
  });
  const [typedEmail, setTypedEmail] = useState<string | null>(null);
  const warnings = typedEmail === null ? (actionData?.warnings ?? []) : emailWarnings(typedEmail);

  return (
    <AuthLayout title="Bem vindo!">
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label="E-mail"
          meta={fields.email}
          type="email"
          inputProps={{ autoComplete: "email", onInput: (event) => setTypedEmail(event.currentTarget.value) }}
          hint={
            warnings.length ? (
              <div className="warning-notice" role="status">
                {warnings.map((warning) => (
                  <p key={warning}>{warning}</p>
                ))}
              </div>
            ) : null
          }
        />
        <PasswordField label="Senha" meta={fields.password} autoComplete="current-password" />
        <button type="submit" className="button button-primary">
          Entrar
        </button>
      </Form>
      <nav className="auth-links" aria-label="Outras ações">
        <Link to="/forgot-password">Esqueci minha senha</Link>
        <Link to="/signup">Cadastrar</Link>
      </nav>
    </AuthLayout>
  );
}
