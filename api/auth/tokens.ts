import { createHash, randomBytes } from "node:crypto";

/** Random bearer/reset tokens; only their SHA-256 is stored, so a database leak does not leak sessions. */
export function newToken() {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}
