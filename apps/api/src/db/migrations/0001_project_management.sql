CREATE TABLE "cmes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"min_cases" integer NOT NULL,
	"credits" numeric(8, 2) NOT NULL,
	"moc" boolean DEFAULT false NOT NULL,
	"totera_course_id" text,
	"custom" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cmes_min_cases_check" CHECK ("cmes"."min_cases" >= 0),
	CONSTRAINT "cmes_credits_check" CHECK ("cmes"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "cap_roster" (
	"cap_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'NOT_STARTED' NOT NULL,
	"scope_id" uuid,
	"created_by" uuid,
	"file_name" text,
	"file_path" text NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_jobs_state_check" CHECK ("import_jobs"."state" in ('NOT_STARTED', 'RUNNING', 'COMPLETE', 'ERROR'))
);
--> statement-breakpoint
CREATE TABLE "disease_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_disease_types" (
	"project_id" uuid NOT NULL,
	"disease_type_id" uuid NOT NULL,
	CONSTRAINT "project_disease_types_project_id_disease_type_id_pk" PRIMARY KEY("project_id","disease_type_id")
);
--> statement-breakpoint
CREATE TABLE "project_question_categories" (
	"project_id" uuid NOT NULL,
	"question_category_id" uuid NOT NULL,
	CONSTRAINT "project_question_categories_project_id_question_category_id_pk" PRIMARY KEY("project_id","question_category_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_status_check" CHECK ("projects"."status" in ('ACTIVE', 'ARCHIVED'))
);
--> statement-breakpoint
CREATE TABLE "question_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"season_id" uuid NOT NULL,
	"number" smallint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	CONSTRAINT "rounds_number_check" CHECK ("rounds"."number" between 1 and 4),
	CONSTRAINT "rounds_dates_check" CHECK ("rounds"."end_date" >= "rounds"."start_date")
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cmes" ADD CONSTRAINT "cmes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_disease_types" ADD CONSTRAINT "project_disease_types_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_disease_types" ADD CONSTRAINT "project_disease_types_disease_type_id_disease_types_id_fk" FOREIGN KEY ("disease_type_id") REFERENCES "public"."disease_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_question_categories" ADD CONSTRAINT "project_question_categories_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_question_categories" ADD CONSTRAINT "project_question_categories_question_category_id_question_categories_id_fk" FOREIGN KEY ("question_category_id") REFERENCES "public"."question_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cmes_project_idx" ON "cmes" USING btree ("project_id","min_cases","id");--> statement-breakpoint
CREATE INDEX "import_jobs_pending_idx" ON "import_jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "import_jobs_scope_idx" ON "import_jobs" USING btree ("kind","scope_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "disease_types_name_unique" ON "disease_types" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "pdt_disease_type_idx" ON "project_disease_types" USING btree ("disease_type_id");--> statement-breakpoint
CREATE INDEX "pqc_question_category_idx" ON "project_question_categories" USING btree ("question_category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_client_name_unique" ON "projects" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "projects_client_created_idx" ON "projects" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "projects_name_idx" ON "projects" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_categories_name_unique" ON "question_categories" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rounds_season_number_unique" ON "rounds" USING btree ("season_id","number");--> statement-breakpoint
CREATE INDEX "rounds_dates_idx" ON "rounds" USING btree ("start_date","end_date");--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_project_name_unique" ON "seasons" USING btree ("project_id",lower("name"));