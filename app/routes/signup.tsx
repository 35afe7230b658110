import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";

import { AuthLayout } from "~/components/auth-layout";
import { Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { SignUpSchema } from "~/lib/schemas";
import { signUp } from "~/models/users.server";
import { requireAnonymous } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Cadastro | Limpeza" }];

const VALIDATION_TOAST: ToastInput = {
  type: "error",
  title: "Erro no Cadastro",
  description: "Verifique os campos destacados.",
};
const FAILURE_TOAST: ToastInput = { type: "error", title: "Erro ao cadastrar!", description: "Verifique os dados!" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request, context);
  const submission = parseWithZod(await request.formData(), { schema: SignUpSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply({ hideFields: ["password", "confirmPassword"] }), toast: VALIDATION_TOAST },
      { status: 400 },
    );
  }
  const { confirmPassword: _confirm, ...body } = submission.value;
  const result = await signUp({ context, request }, body);
  if (!result.ok) {
    return data<FormActionData>(
      {
        result: submission.reply({
          fieldErrors: result.fieldErrors ?? {},
          hideFields: ["password", "confirmPassword"],
        }),
        toast: {
          ...FAILURE_TOAST,
          description: result.status === 500 ? FAILURE_TOAST.description : `Verifique os dados! ${result.message}`,
        },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(context, "/", {
    type: "success",
    title: "Cadastro realizado!",
    description: "Você já pode fazer seu login.",
  });
}

export default function SignUp() {
  const actionData = useActionData<typeof action>();
  const { form, fields, onSubmit, toast } = useValidatedForm(SignUpSchema, actionData, {
    invalidToast: VALIDATION_TOAST,
  });
  return (
    <AuthLayout title="Cadastro">
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack">
        <Field label="Nome" meta={fields.nome} inputProps={{ autoComplete: "name" }} />
        <Field label="E-mail" meta={fields.email} type="email" inputProps={{ autoComplete: "email" }} />
        <Field
          label="Confirmação de e-mail"
          meta={fields.emailConfirmation}
          type="email"
          inputProps={{ autoComplete: "off" }}
        />
        <Field label="CPF" meta={fields.cpf} mask="cpf" inputProps={{ placeholder: "000.000.000-00" }} />
        <Field
          label="Data de nascimento"
          meta={fields.dataNascimento}
          mask="date"
          inputProps={{ placeholder: "DD/MM/AAAA" }}
        />
        <Field
          label="Telefone"
          meta={fields.telefone}
          mask="phone"
          type="tel"
          inputProps={{ placeholder: "(00) 0 0000-0000", autoComplete: "tel" }}
        />
        <PasswordField label="Senha" meta={fields.password} autoComplete="new-password" />
        <PasswordField label="Confirmar senha" meta={fields.confirmPassword} autoComplete="new-password" />
        <button type="submit" className="button button-primary">
          Cadastrar
        </button>
      </Form>
      <nav className="auth-links" aria-label="Outras ações">
        <Link to="/">Voltar ao início</Link>
      </nav>
    </AuthLayout>
  );
}
