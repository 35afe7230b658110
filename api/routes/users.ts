import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { hashPassword, verifyPassword } from "../auth/password.ts";
import { mainCompaniesOf, selectPasswordHash, selectUsers, userJson } from "../auth/users.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import {
  AVATAR_MAX_BYTES,
  AVATAR_TOO_BIG,
  emailField,
  matches,
  MESSAGES,
  nameField,
  passwordField,
  phoneField,
  signUpFields,
} from "../domain/fields.ts";
import { roleName } from "../domain/roles.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { bearer, errorResponses, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { reencodedUpload } from "../services/images.ts";
import { AVATAR_FOLDER, removeReplacedFile, writeNamingFiles } from "../services/orphan-files.ts";
import { assertSeatAvailable, assertUniqueUser, findEditableUser } from "../services/users.ts";

export const SignUpBody = z
  .object(signUpFields)
  .superRefine(matches("emailConfirmation", "email", MESSAGES.emailsDiffer));

/** The contract's User (spec 000 §3), as api/auth/users.ts userJson writes it. */
export const User = z
  .object({
    id: z.number(),
    nome: z.string(),
    email: z.string(),
    cpf: z.string(),
    telefone: z.string(),
    dataNascimento: z.string().nullable().openapi({ description: "YYYY-MM-DD" }),
    avatar: z.string().nullable(),
    avatar_url: z.string().nullable().openapi({ description: "Where the web app can fetch the picture" }),
    roleId: z.number().nullable(),
    coordenador: z.number().nullable(),
    ativo: z.number().openapi({ description: "1 active, 0 inactive" }),
    companyId: z.number().openapi({ description: "The branch for branch-level staff, the main company otherwise" }),
    filialClientId: z.number().nullable(),
    tipo: z.string().nullable(),
    isPhysicalPerson: z.boolean(),
    loggedFirstTime: z.boolean(),
    verified: z.boolean(),
    allowedCreateUsers: z.boolean(),
    createdAt: z.string().openapi({ description: "UTC ISO 8601" }),
    nivelAcesso: z.string(),
  })
  .openapi("User");
export type User = z.infer<typeof User>;

/** The CPFs that own a main company (decision 002-tenancy), in the session and /users/me answers. */
export const CpfUserMaster = z.array(z.object({ CPF: z.string(), Id_Empresas: z.number() }));
/** The main companies the user works for, the user's own first (empty for branch-level staff and clients). */
export const EmpresaPrincipal = z.array(z.object({ Id_Empresas: z.number(), NOME: z.string() }));

export const UserAnswer = z.object({ user: User }).openapi("UserAnswer");
export type UserAnswer = z.infer<typeof UserAnswer>;

/** GET /users/me: the user with the names of the company and branch, for the profile page. */
export const MeAnswer = z
  .object({
    user: User,
    cpfUserMaster: CpfUserMaster,
    empresaPrincipal: EmpresaPrincipal,
    nivelAcesso: z.string(),
    empresa: z.string().openapi({ description: "The main company's name" }),
    filial: z.string().nullable().openapi({ description: "The branch's name (own or client branch), if any" }),
  })
  .openapi("Me");
export type MeAnswer = z.infer<typeof MeAnswer>;

const signUp = createRoute({
  method: "post",
  path: "/users",
  summary: "Sign up with a pre-registered CPF",
  request: { body: jsonBody(SignUpBody) },
  responses: {
    201: jsonResponse("Created", UserAnswer),
    400: errorResponses[400],
    409: errorResponses[409],
    503: errorResponses[503],
  },
});

const me = createRoute({
  method: "get",
  path: "/users/me",
  summary: "The signed-in user with company and branch names (profile page)",
  security: bearer,
  responses: { 200: jsonResponse("User", MeAnswer), 401: errorResponses[401] },
});

const avatar = createRoute({
  method: "patch",
  path: "/users/avatar",
  summary:
    "Upload the avatar (multipart: avatar file, user_id): JPEG, PNG, GIF or WebP, 2 MB and 40 megapixels at most, " +
    "stored as an upright JPEG without metadata",
  security: bearer,
  request: {
    body: {
      content: { "multipart/form-data": { schema: z.object({ avatar: z.any(), user_id: z.string() }) } },
      required: true,
    },
  },
  responses: {
    200: jsonResponse("Updated", UserAnswer),
    413: errorResponses[400],
    415: errorResponses[400],
    404: errorResponses[404],
  },
});

const ProfileUpdateBody = z.object({
  nome: nameField(),
  email: emailField,
  telefone: phoneField,
});

const updateProfile = createRoute({
  method: "put",
  path: "/users/update",
  summary: "Update the signed-in user's name, e-mail and phone",
  security: bearer,
  request: { body: jsonBody(ProfileUpdateBody) },
  responses: { 200: jsonResponse("Updated", UserAnswer), 400: errorResponses[400], 409: errorResponses[400] },
});

export const UserEditBody = z.object({
  userId: z.coerce.number().int(),
  nome: nameField(),
  telefone: phoneField,
  ativo: z.union([z.boolean(), z.number()]).transform((value) => (value === true || value === 1 ? 1 : 0)),
  password: z.preprocess((v) => (v === "" || v === null ? undefined : v), passwordField.optional()),
  oldPassword: z.string().optional().openapi({
    description: "Required when users change their own password (an addition to the original contract)",
  }),
});

const editUser = createRoute({
  method: "put",
  path: "/users",
  summary: "Edit a user's name, phone, active flag and optionally password",
  security: bearer,
  request: { body: jsonBody(UserEditBody) },
  responses: { 200: jsonResponse("Updated", UserAnswer), 400: errorResponses[400], 404: errorResponses[404] },
});

/** POST /users: public sign-up. */
export function signUpRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(signUp, async (c) => {
    const body = c.req.valid("json");
    const invitation = await db
      .selectFrom("pre_registered_cpfs")
      .innerJoin("branches", "branches.id", "pre_registered_cpfs.branch_id")
      .innerJoin("companies", "companies.id", "pre_registered_cpfs.company_id")
      .select(["pre_registered_cpfs.company_id", "pre_registered_cpfs.branch_id", "pre_registered_cpfs.role_id"])
      .where("pre_registered_cpfs.cpf", "=", body.cpf)
      .where("pre_registered_cpfs.ativo", "=", true)
      .where("pre_registered_cpfs.deleted_at", "is", null)
      .where("companies.ativo", "=", true)
      .executeTakeFirst();
    if (!invitation) {
      throw new ApiError(400, "CPF não pré-cadastrado. Procure o administrador da sua empresa.", {
        cpf: ["CPF não pré-cadastrado"],
      });
    }
    await assertUniqueUser(db, invitation.company_id, { email: body.email, cpf: body.cpf });
    const passwordHash = await hashPassword(body.password);
    const companyWide = invitation.role_id === 2 || invitation.role_id === 4;
    const id = await db.transaction().execute(async (trx) => {
      await assertSeatAvailable(trx, invitation.company_id);
      const created = await trx
        .insertInto("users")
        .values({
          company_id: invitation.company_id,
          branch_id: companyWide ? null : invitation.branch_id,
          nome: body.nome,
          email: body.email,
          cpf: body.cpf,
          telefone: body.telefone,
          data_nascimento: body.dataNascimento,
          role_id: invitation.role_id,
          coordenador: invitation.role_id === 3 ? 1 : null,
          password_hash: passwordHash,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return created.id;
    });
    const row = await selectUsers(db).where("users.id", "=", id).executeTakeFirstOrThrow();
    return c.json({ user: userJson(row) }, 201);
  });

  return app;
}

/** The signed-in user's own account, and editing users in scope. */
export function userRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(me, async (c) => {
    const user = c.get("user");
    const row = await selectUsers(db).where("users.id", "=", user.id).executeTakeFirstOrThrow();
    const names = await db
      .selectFrom("companies")
      .leftJoin("branches", (join) => join.on("branches.id", "=", user.branchId ?? user.filialClientId ?? -1))
      .select(["companies.nome as companyName", "branches.nome as branchName"])
      .where("companies.id", "=", user.companyId)
      .executeTakeFirstOrThrow();
    return c.json(
      {
        user: userJson(row),
        ...(await mainCompaniesOf(db, user)),
        nivelAcesso: roleName(user),
        empresa: names.companyName,
        filial: names.branchName,
      },
      200,
    );
  });

  app.openapi(avatar, async (c) => {
    const user = c.get("user");
    const form = await c.req.formData();
    const file = form.get("avatar");
    if (String(form.get("user_id") ?? user.id) !== String(user.id)) throw notFound();
    if (!(file instanceof File) || file.size === 0) throw new ApiError(415, "Arquivo não suportado");
    if (file.size > AVATAR_MAX_BYTES) throw new ApiError(413, AVATAR_TOO_BIG);
    const bytes = await reencodedUpload(new Uint8Array(await file.arrayBuffer()), {
      typeMessage: "Arquivo não suportado",
    });
    // The new file is named in the write that saves it (removed if that fails); the one it replaces goes once the new
    // one is committed, with its thumbnail (api/services/orphan-files.ts, docs/photos.md 'Where files live').
    const files = { db, storage: deps.storage };
    const replaced = await writeNamingFiles(files, AVATAR_FOLDER, async (save) => {
      const name = await save(bytes);
      return db.transaction().execute(async (trx) => {
        // Locked: of two uploads at once, the second replaces the first one's file, so neither is left unnamed.
        const { avatar: previous } = await trx
          .selectFrom("users")
          .select("avatar")
          .where("id", "=", user.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable("users")
          .set({ avatar: name, updated_at: new Date() })
          .where("id", "=", user.id)
          .execute();
        return previous;
      });
    });
    // A removal that fails is no failure of the upload: the sweep takes the file later.
    await removeReplacedFile(files, AVATAR_FOLDER, replaced).catch(() => undefined);
    const row = await selectUsers(db).where("users.id", "=", user.id).executeTakeFirstOrThrow();
    return c.json({ user: userJson(row) }, 200);
  });

  app.openapi(updateProfile, async (c) => {
    const user = c.get("user");
    const body = c.req.valid("json");
    await assertUniqueUser(db, user.companyId, { email: body.email }, user.id);
    await db
      .updateTable("users")
      .set({ nome: body.nome, email: body.email, telefone: body.telefone, updated_at: new Date() })
      .where("id", "=", user.id)
      .execute();
    const row = await selectUsers(db).where("users.id", "=", user.id).executeTakeFirstOrThrow();
    return c.json({ user: userJson(row) }, 200);
  });

  app.openapi(editUser, async (c) => {
    const user = c.get("user");
    const scope = c.get("scope");
    const body = c.req.valid("json");
    const self = body.userId === user.id;
    // The users scope every user call reads (404 outside it), then the rule table of spec 000 §6 (403).
    const target = await findEditableUser(db, { scope, user }, body.userId);
    let passwordHash: string | undefined;
    if (body.password) {
      if (self) {
        if (!body.oldPassword)
          throw new ApiError(400, "Senha antiga é requirida", { oldPassword: ["Senha antiga é requirida"] });
        const { password_hash } = await selectPasswordHash(db)
          .where("users.id", "=", target.id)
          .executeTakeFirstOrThrow();
        if (!(await verifyPassword(body.oldPassword, password_hash))) {
          throw new ApiError(400, "A senha atual está incorreta", { oldPassword: ["A senha atual está incorreta"] });
        }
      }
      passwordHash = await hashPassword(body.password);
    }
    if (self && body.ativo === 0) throw new ApiError(400, "O usuário não pode inativar a própria conta");
    await db.transaction().execute(async (trx) => {
      // Reactivating someone takes a seat of the company's max_number_users again.
      if (body.ativo === 1 && target.ativo === 0) await assertSeatAvailable(trx, target.company_id);
      await trx
        .updateTable("users")
        .set({
          nome: body.nome,
          telefone: body.telefone,
          ativo: body.ativo,
          ...(passwordHash ? { password_hash: passwordHash } : {}),
          updated_at: new Date(),
        })
        .where("id", "=", body.userId)
        .execute();
      // A new password or an inactivated account ends the other open sessions of that user.
      if (passwordHash || body.ativo === 0) {
        await trx
          .updateTable("sessions")
          .set({ revoked_at: new Date() })
          .where("user_id", "=", body.userId)
          .where("revoked_at", "is", null)
          .$if(self, (qb) => qb.where("token_hash", "!=", c.get("tokenHash")))
          .execute();
      }
    });
    const row = await selectUsers(db).where("users.id", "=", body.userId).executeTakeFirstOrThrow();
    return c.json({ user: userJson(row) }, 200);
  });

  return app;
}
