CREATE TABLE "case_resources" (
	"case_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "case_resources_case_id_resource_id_pk" PRIMARY KEY("case_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "resource_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_category_links" (
	"resource_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	CONSTRAINT "resource_category_links_resource_id_category_id_pk" PRIMARY KEY("resource_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"source_type" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"link" text,
	"file" jsonb,
	"media" jsonb,
	"thumbnail_key" text,
	"processing" text DEFAULT 'NONE' NOT NULL,
	"processing_claimed_at" timestamp with time zone,
	"duplicate_of" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resources_source_type_check" CHECK ("resources"."source_type" in ('PDF', 'IMAGE', 'VIDEO', 'URL', 'TEXT')),
	CONSTRAINT "resources_processing_check" CHECK ("resources"."processing" in ('NONE', 'PENDING', 'RUNNING', 'READY', 'FAILED')),
	CONSTRAINT "resources_content_check" CHECK (("resources"."source_type" in ('PDF', 'IMAGE', 'VIDEO') and "resources"."file" is not null and "resources"."link" is null)
        or ("resources"."source_type" = 'URL' and "resources"."link" is not null and "resources"."file" is null)
        or ("resources"."source_type" = 'TEXT' and "resources"."link" is null and "resources"."file" is null))
);
--> statement-breakpoint
ALTER TABLE "case_resources" ADD CONSTRAINT "case_resources_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_resources" ADD CONSTRAINT "case_resources_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_category_links" ADD CONSTRAINT "resource_category_links_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_category_links" ADD CONSTRAINT "resource_category_links_category_id_resource_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."resource_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_resources_resource_idx" ON "case_resources" USING btree ("resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "resource_categories_name_key" ON "resource_categories" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "resource_category_links_category_idx" ON "resource_category_links" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "resources_link_key" ON "resources" USING btree ("link") WHERE "resources"."link" is not null;--> statement-breakpoint
CREATE INDEX "resources_name_idx" ON "resources" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "resources_type_name_idx" ON "resources" USING btree ("source_type",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "resources_created_idx" ON "resources" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "resources_updated_idx" ON "resources" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "resources_name_trgm_idx" ON "resources" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "resources_processing_idx" ON "resources" USING btree ("created_at") WHERE "resources"."processing" in ('PENDING', 'RUNNING');