CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"cme_id" uuid,
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"participant_name" text NOT NULL,
	"profession" text,
	"project_name" text NOT NULL,
	"client_name" text NOT NULL,
	"credits" numeric(8, 2) NOT NULL,
	"moc_points" numeric(8, 2),
	"course_id" text,
	"min_cases" integer NOT NULL,
	"cases" jsonb NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"revoked_by" uuid
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_cme_id_cmes_id_fk" FOREIGN KEY ("cme_id") REFERENCES "public"."cmes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_code_unique" ON "certificates" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_cme_user_unique" ON "certificates" USING btree ("cme_id","user_id") WHERE "certificates"."cme_id" is not null;--> statement-breakpoint
CREATE INDEX "certificates_project_idx" ON "certificates" USING btree ("project_id","issued_at","id");--> statement-breakpoint
CREATE INDEX "certificates_user_idx" ON "certificates" USING btree ("user_id");