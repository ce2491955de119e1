CREATE TABLE "password_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "password_codes" ADD CONSTRAINT "password_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_codes_hash_unique" ON "password_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "password_codes_user_idx" ON "password_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "password_codes_expires_idx" ON "password_codes" USING btree ("expires_at");