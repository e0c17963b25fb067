CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"last_login" timestamp with time zone,
	"max_exposure" numeric(28, 10) DEFAULT '1000' NOT NULL,
	"min_spread" numeric(12, 8) DEFAULT '0.002' NOT NULL,
	"max_loss" numeric(28, 10) DEFAULT '100' NOT NULL,
	"trading_enabled" boolean DEFAULT false NOT NULL,
	"trading_halted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "venue_credentials" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"binance_api_key_enc" text,
	"binance_secret_key_enc" text,
	"deriv_token_enc" text,
	"binance_api_key_last4" text,
	"binance_secret_key_last4" text,
	"deriv_token_last4" text,
	"deriv_app_id" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"venue" text NOT NULL,
	"client_order_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"venue_order_id" text NOT NULL,
	"price" numeric(28, 10) NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"fee" numeric(28, 10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"origin" text DEFAULT 'auto' NOT NULL,
	"total_amount" numeric(28, 10) NOT NULL,
	"arbitrage_spread" numeric(18, 10) NOT NULL,
	"actual_profit" numeric(28, 10) DEFAULT '0' NOT NULL,
	"reason" text,
	"legs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "trades_trade_id_unique" UNIQUE("trade_id")
);
--> statement-breakpoint
CREATE TABLE "balances" (
	"user_id" uuid NOT NULL,
	"venue" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(28, 10) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balances_user_id_venue_currency_pk" PRIMARY KEY("user_id","venue","currency")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_credentials" ADD CONSTRAINT "venue_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_trading_idx" ON "users" USING btree ("trading_enabled");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_orders_venue_client_idx" ON "paper_orders" USING btree ("venue","client_order_id");--> statement-breakpoint
CREATE INDEX "trades_user_created_idx" ON "trades" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trades_user_status_created_idx" ON "trades" USING btree ("user_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trades_user_symbol_created_idx" ON "trades" USING btree ("user_id","symbol","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trades_user_status_symbol_created_idx" ON "trades" USING btree ("user_id","status","symbol","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trades_pending_idx" ON "trades" USING btree ("status") WHERE status = 'pending';