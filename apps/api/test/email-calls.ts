import { expect } from 'vitest';
import type { EmailDelivery, EmailTemplate, Paged } from '@pss/contract';
import type { MailMessage, Mailer } from '../src/lib/mailer.js';
import { call, type Caller } from './kit.js';
import type { TestContext } from './test-app.js';

/**
 * A mailer that keeps what it is given, and can be told to fail as a mail server would
 * (a 4xx or no connection: tried again; a 5xx: refused for good).
 */
export function capturingMailer() {
  const sent: MailMessage[] = [];
  let failure: ((message: MailMessage) => Error | null) | null = null;
  const mailer: Mailer = {
    async send(message) {
      const error = failure?.(message);
      if (error) throw error;
      sent.push(message);
    },
  };
  return {
    mailer,
    sent,
    failWith(make: ((message: MailMessage) => Error | null) | null) {
      failure = make;
    },
    clear() {
      sent.length = 0;
    },
  };
}

/** An error shaped as nodemailer's for an SMTP answer. */
export function smtpError(responseCode: number, response: string): Error {
  return Object.assign(new Error(`Message failed: ${response}`), { responseCode, response });
}

/** The link a sent email's button carries. */
export function linkIn(message: MailMessage): string {
  const found = /https?:\/\/\S+\/participant\/link\/[\w.-]+/.exec(message.text);
  expect(found, 'a dashboard link in the text part').not.toBeNull();
  return found![0];
}

export function emailCalls(ctx: TestContext) {
  return {
    async projectEmails(projectId: string, caller: Caller): Promise<EmailTemplate[]> {
      const response = await call(ctx, 'GET', `/projects/${projectId}/emails-list`, caller);
      expect(response.statusCode).toBe(200);
      return response.json<{ items: EmailTemplate[] }>().items;
    },
    async emailOf(projectId: string, type: EmailTemplate['type'], caller: Caller): Promise<EmailTemplate> {
      return (await this.projectEmails(projectId, caller)).find((e) => e.type === type)!;
    },
    async deliveries(projectId: string, caller: Caller, query = ''): Promise<Paged<EmailDelivery>> {
      const response = await call(ctx, 'GET', `/projects/${projectId}/email-deliveries${query}`, caller);
      expect(response.statusCode).toBe(200);
      return response.json<Paged<EmailDelivery>>();
    },
  };
}
