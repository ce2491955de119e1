-- Limits on anonymous calls counted in the database, so that every process counts together
-- (issue #46): calls per address and minute, the audit trail's anonymous events counted per
-- minute (one event and a summary, not one each), and the unlock links of locked accounts.
CREATE TABLE "account_locks" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "anonymous_event_counts" (
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"ip" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"summarized_at" timestamp with time zone,
	CONSTRAINT "anonymous_event_counts_action_outcome_ip_minute_pk" PRIMARY KEY("action","outcome","ip","minute")
);
--> statement-breakpoint
CREATE TABLE "call_counts" (
	"key" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "call_counts_key_minute_pk" PRIMARY KEY("key","minute")
);
--> statement-breakpoint
ALTER TABLE "account_locks" ADD CONSTRAINT "account_locks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_locks_token_unique" ON "account_locks" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "anonymous_event_counts_minute_idx" ON "anonymous_event_counts" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "call_counts_minute_idx" ON "call_counts" USING btree ("minute");