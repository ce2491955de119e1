CREATE TABLE "import_rows" (
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"email" text NOT NULL,
	"employee_id" text NOT NULL,
	"role" text NOT NULL,
	"profession" text NOT NULL,
	"salutation" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"secondary_email" text,
	"mobile_number" text,
	"npi" text,
	"practice_number" text,
	"facility" text,
	"specialty" text,
	"manager_first_name" text,
	"manager_last_name" text,
	"manager_email" text,
	"user_type" text,
	"season_id" uuid,
	"first_round" smallint,
	"last_round" smallint,
	"start_date" date
);
--> statement-breakpoint
CREATE TABLE "participant_assignments" (
	"user_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"first_round" smallint NOT NULL,
	"last_round" smallint NOT NULL,
	"start_date" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "participant_assignments_user_id_season_id_pk" PRIMARY KEY("user_id","season_id"),
	CONSTRAINT "participant_assignments_rounds_check" CHECK ("participant_assignments"."first_round" between 1 and 4 and "participant_assignments"."last_round" between "participant_assignments"."first_round" and 4)
);
--> statement-breakpoint
CREATE TABLE "project_participants" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"sort_name" text NOT NULL,
	"email" text NOT NULL,
	"notes" text,
	"data_status" text DEFAULT 'NOT_READY' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_participants_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "active_participants" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "archived_participants" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "not_ready_participants" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "employee_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "salutation" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "secondary_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mobile_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "practice_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "facility" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "specialty" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "profession" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "manager_first_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "manager_last_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "manager_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "user_type" text;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_participants" ADD CONSTRAINT "project_participants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_participants" ADD CONSTRAINT "project_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rows_job_email_idx" ON "import_rows" USING btree ("job_id","email");--> statement-breakpoint
CREATE INDEX "participant_assignments_project_idx" ON "participant_assignments" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "project_participants_user_idx" ON "project_participants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "project_participants_by_name_idx" ON "project_participants" USING btree ("project_id","archived","sort_name","user_id");--> statement-breakpoint
CREATE INDEX "project_participants_by_email_idx" ON "project_participants" USING btree ("project_id","archived","email","user_id");--> statement-breakpoint
CREATE INDEX "project_participants_by_created_idx" ON "project_participants" USING btree ("project_id","archived","created_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_client_employee_unique" ON "users" USING btree ("client_id","employee_id") WHERE "users"."employee_id" is not null;--> statement-breakpoint
-- Staging is rewritten by every import and a crashed import starts again: no WAL needed.
ALTER TABLE "import_rows" SET UNLOGGED;
