-- The Certificate Email (issue #37): a new project email type (the type check is remade with
-- it), and the outbox row's certificate, whose code and credits fill the email when it goes.
ALTER TABLE "email_templates" DROP CONSTRAINT "email_templates_type_check";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "certificate_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_certificate_idx" ON "email_outbox" USING btree ("certificate_id") WHERE "email_outbox"."certificate_id" is not null;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_type_check" CHECK ("email_templates"."type" in ('initial', 'reminder', 'last_day_of_round', 'new_round', 'last_round', 'summary_launch', 'summary_reminder', 'certificate_issued', 'season_summary_launch', 'season_summary_reminder'));