CREATE TABLE "answer_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_answer_tags" (
	"case_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"choice_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	"origin" text NOT NULL,
	CONSTRAINT "case_answer_tags_case_id_choice_id_tag_id_pk" PRIMARY KEY("case_id","choice_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "key_takeaways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"text" text NOT NULL,
	"origin" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_answer_tags" ADD CONSTRAINT "case_answer_tags_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_answer_tags" ADD CONSTRAINT "case_answer_tags_tag_id_answer_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."answer_tags"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_takeaways" ADD CONSTRAINT "key_takeaways_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answer_tags_name_unique" ON "answer_tags" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "case_answer_tags_tag_idx" ON "case_answer_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "key_takeaways_case_position_unique" ON "key_takeaways" USING btree ("case_id","position");