CREATE TABLE "participant_search" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"terms" text NOT NULL,
	CONSTRAINT "participant_search_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
DROP INDEX "users_client_id_idx";--> statement-breakpoint
DROP INDEX "import_rows_job_email_idx";--> statement-breakpoint
DROP INDEX "project_participants_user_idx";--> statement-breakpoint
DROP INDEX "project_participants_search_idx";--> statement-breakpoint
DROP INDEX "users_client_employee_unique";--> statement-breakpoint
ALTER TABLE "project_participants" DROP CONSTRAINT "project_participants_project_id_user_id_pk";--> statement-breakpoint
ALTER TABLE "project_participants" ADD CONSTRAINT "project_participants_user_id_project_id_pk" PRIMARY KEY("user_id","project_id");--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "participant_search_stale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "participant_search" ADD CONSTRAINT "participant_search_user_id_project_id_project_participants_user_id_project_id_fk" FOREIGN KEY ("user_id","project_id") REFERENCES "public"."project_participants"("user_id","project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "participant_search_terms_idx" ON "participant_search" USING gin ("terms" gin_trgm_ops) WITH (gin_pending_list_limit=32768);--> statement-breakpoint
CREATE INDEX "projects_search_stale_idx" ON "projects" USING btree ("id") WHERE "projects"."participant_search_stale";--> statement-breakpoint
CREATE UNIQUE INDEX "users_client_employee_unique" ON "users" USING btree ("client_id","employee_id");--> statement-breakpoint
-- Existing participations become searchable through the new table at once.
INSERT INTO "participant_search" ("project_id", "user_id", "terms")
SELECT "project_id", "user_id", "sort_name" || ' ' || "email" FROM "project_participants";
