import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { CSV_INVALID } from "../../api/domain/catalogues";

import { callApi } from "~/api.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BLANK_FIELDS_TOAST, ErrorList, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";
import { catalogueItemSchema } from "~/lib/schemas";
import { redirectWithToast, toastCookie, type ToastInput } from "~/toast.server";

import { BatchUpload, type BatchFileResult } from "./batch-upload";
import { activeBranches, requireCatalogue } from "./catalogue.server";
import { CatalogueItemFields } from "./item-fields";

export const INTENT = { single: "individual", batch: "lote" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  if (!catalogue.canEdit) throw redirect(`/${catalogue.kind}`);
  const branches = await activeBranches(request, context, catalogue);
  if (!branches.length) throw redirect(`/${catalogue.kind}`);
  return json({
    kind: catalogue.kind,
    texts: catalogue.texts,
    hasColor: catalogue.definition.hasColor,
    branches,
    batch: new URL(request.url).searchParams.get("modo") === "lote",
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const form = await request.formData();
  const { texts, definition } = catalogue;

  if (form.get("intent") === INTENT.batch) {
    // One request per file; JS sends them one by one (with progress) and asks for JSON.
    const wantsJson = request.headers.get("accept")?.includes("application/json");
    const branchId = String(form.get("idEmpresaFilial") ?? "");
    const files = form.getAll("arquivos").filter((file): file is File => file instanceof File && file.size > 0);
    // JS reads each file's outcome from the JSON (always 200 there); a plain form post gets a 400 page.
    // The chosen branch goes back too, so the no-JS error page keeps it selected for the next try.
    const fail = (toast: ToastInput, results: BatchFileResult[]) =>
      json<FormActionData & { files: BatchFileResult[]; branchId: string }>(
        { toast, files: results, branchId },
        { status: wantsJson ? 200 : 400 },
      );
    if (!files.length) return fail({ type: "error", title: texts.batchFailed, description: CSV_INVALID }, []);
    const results: BatchFileResult[] = [];
    for (const file of files) {
      const upload = new FormData();
      upload.set(definition.csvField, file);
      upload.set("idEmpresaFilial", branchId);
      const result = await callApi(context, request, definition.csvPath, {
        method: "POST",
        token: catalogue.auth.token,
        formData: upload,
      });
      results.push(
        result.ok
          ? { name: file.name, ok: true, errors: [] }
          : { name: file.name, ok: false, errors: result.fieldErrors?.[definition.csvField] ?? [result.message] },
      );
    }
    const failed = results.filter((result) => !result.ok);
    if (failed.length) {
      const description =
        failed.length === 1 && failed[0].errors.length === 1
          ? failed[0].errors[0]
          : "Nenhuma linha dos arquivos com erro foi gravada. Corrija as linhas indicadas e envie de novo.";
      return fail({ type: "error", title: texts.batchFailed, description }, results);
    }
    const toast: ToastInput = { type: "success", title: texts.batchCreated };
    if (wantsJson) {
      return json<FormActionData & { files: BatchFileResult[] }>(
        { files: results },
        { headers: { "set-cookie": await toastCookie(context, toast) } },
      );
    }
    return redirectWithToast(context, `/${catalogue.kind}`, toast);
  }

  const submission = parseWithZod(form, {
    schema: catalogueItemSchema(catalogue.kind, true),
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return json<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await callApi(context, request, `${definition.apiPath}/`, {
    method: "POST",
    token: catalogue.auth.token,
    json: submission.value,
  });
  if (!result.ok) {
    const toast: ToastInput =
      result.status === 409
        ? { type: "info", title: texts.duplicateTitle, description: texts.duplicateDescription }
        : { type: "error", title: texts.createFailed, description: result.message };
    return json<FormActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(context, `/${catalogue.kind}`, { type: "success", title: texts.created });
}

export default function CatalogueRegister() {
  const { kind, texts, hasColor, branches, batch } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormActionData & { files?: BatchFileResult[]; branchId?: string }>();
  const navigation = useNavigation();
  const { form, fields, onSubmit, toast } = useValidatedForm(
    catalogueItemSchema(kind, true),
    batch ? undefined : actionData,
    {
      defaultValue: { companyId: String(branches[0].id), color: "#c62828" },
    },
  );
  const batchFiles = actionData?.files ?? [];

  return (
    <section className="card" aria-label={texts.registerTab}>
      <nav className="segmented" aria-label="Tipo de cadastro">
        <Link to={`/${kind}/cadastrar`} aria-current={batch ? undefined : "page"}>
          Cadastro individual
        </Link>
        <Link to={`/${kind}/cadastrar?modo=lote`} aria-current={batch ? "page" : undefined}>
          Cadastro em lote
        </Link>
      </nav>
      {batch ? (
        <>
          <FormToast toast={actionData?.toast} />
          <BatchUpload
            kind={kind}
            branches={branches}
            intent={INTENT.batch}
            serverResults={batchFiles}
            branchId={actionData?.branchId}
            busy={navigation.state === "submitting"}
            failedTitle={texts.batchFailed}
          />
        </>
      ) : (
        <>
          <FormToast toast={toast} />
          <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
            <input type="hidden" name="intent" value={INTENT.single} />
            <div className="field">
              <label htmlFor={fields.companyId.id}>Empresa / filial</label>
              <select
                id={fields.companyId.id}
                name={fields.companyId.name}
                defaultValue={fields.companyId.initialValue}
              >
                {branches.map((branch) => (
                  <option key={branch.id} value={branch.id}>
                    {branch.id} - {branch.nome}
                  </option>
                ))}
              </select>
              <ErrorList errors={fields.companyId.errors} />
            </div>
            <CatalogueItemFields nameLabel={texts.nameLabel} hasColor={hasColor} fields={fields} />
            <div className="form-actions">
              <button type="submit" className="button button-primary">
                Cadastrar
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
