CREATE TABLE "module_disease_types" (
	"module_id" uuid NOT NULL,
	"disease_type_id" uuid NOT NULL,
	CONSTRAINT "module_disease_types_module_id_disease_type_id_pk" PRIMARY KEY("module_id","disease_type_id")
);
--> statement-breakpoint
CREATE TABLE "module_question_categories" (
	"module_id" uuid NOT NULL,
	"question_category_id" uuid NOT NULL,
	CONSTRAINT "module_question_categories_module_id_question_category_id_pk" PRIMARY KEY("module_id","question_category_id")
);
--> statement-breakpoint
CREATE TABLE "modules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "module_disease_types" ADD CONSTRAINT "module_disease_types_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_disease_types" ADD CONSTRAINT "module_disease_types_disease_type_id_disease_types_id_fk" FOREIGN KEY ("disease_type_id") REFERENCES "public"."disease_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_question_categories" ADD CONSTRAINT "module_question_categories_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_question_categories" ADD CONSTRAINT "module_question_categories_question_category_id_question_categories_id_fk" FOREIGN KEY ("question_category_id") REFERENCES "public"."question_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mdt_disease_type_idx" ON "module_disease_types" USING btree ("disease_type_id");--> statement-breakpoint
CREATE INDEX "mqc_question_category_idx" ON "module_question_categories" USING btree ("question_category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "modules_name_unique" ON "modules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "modules_created_idx" ON "modules" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "modules_name_trgm_idx" ON "modules" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE restrict ON UPDATE no action;