// The payload of every queue job (app/infra/queues.server.ts, QueueJobs): plain JSON shapes shared
// by the producer and the worker (docs/decisions/040-typed-jobs.md). A leaf: it imports nothing of
// the app, so the queue module and the domain modules that produce or process a job both read
// the same type without depending on each other (docs/decisions/092-rooms-and-layers.md).
import type { ContractStatus } from "@prisma/client";

/** A `mirror` "sync-contract" job: one inbound subscription_contracts/create|update webhook. */
export type ContractWebhook = {
  shopDomain: string;
  webhookId: string;
  topic: "subscription_contracts/create" | "subscription_contracts/update";
  contractGid: string;
  /** Status named by the webhook payload (upper-cased), and its revision. */
  status: ContractStatus;
  revision: string;
  /** When the platform sent it (ISO 8601): payloads cross Redis as JSON. */
  occurredAt?: string;
};

/** A `mirror` "sync-selling-plan-group" job: one inbound selling_plan_groups/update webhook. */
export interface SellingPlanGroupWebhook {
  shopDomain: string;
  groupGid: string;
  webhookId?: string;
}

/** A `mirror` "confirm-cycle-skip" job: one inbound subscription_billing_cycles/skip webhook. */
export interface CycleSkipWebhook {
  shopDomain: string;
  webhookId: string;
  contractGid: string;
  /** The skipped cycle's expected billing date (ISO 8601). */
  skippedDate: string;
}

/**
 * A `mirror` "refresh-customer-cards" job: one inbound customer_payment_methods/update webhook. The
 * customer's contracts are read again, so the card expiry they mirror follows the new card
 * (docs/decisions/158-card-expiry-mirror.md).
 */
export interface PaymentMethodWebhookJob {
  shopDomain: string;
  webhookId: string;
  customerGid: string;
}

/** A `privacy` job: one customer of one shop (customers/redact, customers/data_request). */
export type CustomerRef = { domain: string; customerGid: string; email?: string | null };

export interface ShopRef {
  domain: string;
}
export type NoData = Record<string, never>;

/** A win-back run of one shop on the clock it was queued with (ISO 8601; docs/decisions/117). */
export interface WinbackRunPayload {
  domain: string;
  at: string;
}

/** The payload of an `exports` queue job, shared by the producer and the worker. */
export interface ExportRenderPayload {
  exportId: string;
}

/** The payload of a `billing` queue "billing-run" job: one scheduler run for one shop. */
export interface BillingRunPayload {
  shopDomain: string;
}

/**
 * The payload of a `billing` queue "billing-outcome" job: one subscription_billing_attempts/*
 * webhook as the engine reads it (app/domain/renewals/outcomes.server.ts, BillingOutcome).
 */
export interface BillingOutcomePayload {
  shopDomain: string;
  webhookId: string;
  topic: "subscription_billing_attempts/success" | "subscription_billing_attempts/failure" | "subscription_billing_attempts/challenged";
  attemptGid: string | null;
  idempotencyKey: string;
  contractGid: string;
  orderGid: string | null;
  errorCode: string | null;
}

/** The payload of an `imports` queue job, shared by the producer and the worker. */
export interface ImportRunPayload {
  importId: string;
}

/**
 * The payload of a `webhooks` queue job ("deliver"), shared by the producer and the worker: the
 * deliveries it attempts, all at the same attempt number. An event's first attempts go as one job
 * (one delivery per subscribed endpoint, at most ten); a retry or a manual attempt is a job of its
 * own delivery (docs/decisions/052).
 */
export interface WebhookAttemptPayload {
  deliveryIds: string[];
  /** Which attempt this job makes (1-based); a delivery whose attempt was already made is skipped. */
  attempt: number;
}

/** The payload of a `webhooks` queue "flow-trigger" job: the Flow trigger call owed for one event (docs/decisions/128). */
export interface FlowTriggerPayload {
  eventId: string;
}

/** The payload of a `mail` queue "send" job: one notification_log row (the outbox, docs/decisions/101). */
export interface MailSendPayload {
  rowId: string;
}
