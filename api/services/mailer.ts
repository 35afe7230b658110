import nodemailer from "nodemailer";
import type { Logger } from "pino";

import type { Database } from "../db/connection.ts";

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * Every message is written to the outbox table first (so it is never lost and tests can read it).
 * With SMTP_URL set it is also sent through nodemailer and marked sent; otherwise it is logged.
 */
export function createMailer(database: Database, logger: Logger, smtpUrl?: string, from?: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    async send(mail) {
      const row = await database.db
        .insertInto("outbox")
        .values({ recipient: mail.to, subject: mail.subject, body_text: mail.text })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (!transport) {
        logger.info(
          { outboxId: row.id, to: mail.to, subject: mail.subject, text: mail.text },
          "e-mail written to the outbox",
        );
        return;
      }
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      await database.db.updateTable("outbox").set({ sent_at: new Date() }).where("id", "=", row.id).execute();
    },
  };
}
