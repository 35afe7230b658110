import type { ToastInput } from "~/toast.server";

/**
 * Sign-in toasts (spec 000 §8 'Access'). Not in auth.server.ts: the sign-in page shows SIGN_IN_FAILED in the
 * browser too (a failed client-side check), and a *.server module is empty in the browser bundle.
 */
export const SIGN_IN_FAILED: ToastInput = {
  type: "error",
  title: "Erro na autenticação",
  description: "Ocorreu um erro ao fazer login, cheque as credenciais.",
};
export const ACCESS_BLOCKED: ToastInput = {
  type: "info",
  title: "Acesso bloqueado!",
  description:
    "Caso queira alterar suas permissões, entre em contato com seu coordenador ou o administrador do sistema.",
};
