CREATE TABLE "email_test_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"sender_id" uuid,
	"sender_email" text NOT NULL,
	"project_id" uuid,
	"template_id" uuid,
	"recipients" jsonb NOT NULL,
	"recipient_count" integer NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"button_text" text NOT NULL,
	"dashboard_url_text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_test_sends" ADD CONSTRAINT "email_test_sends_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_test_sends" ADD CONSTRAINT "email_test_sends_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_test_sends" ADD CONSTRAINT "email_test_sends_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_test_sends_sender_idx" ON "email_test_sends" USING btree ("sender_id","sent_at");--> statement-breakpoint
CREATE INDEX "email_test_sends_project_idx" ON "email_test_sends" USING btree ("project_id","sent_at");