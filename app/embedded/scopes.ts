// What each scope lets a key holder do, in the merchant's words (API keys page). The scope
// vocabulary itself is app/domain/keys/keys.server.ts; this is only its copy.
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  "read:subscriptions": "See subscriptions: status, next charge date, plan and amounts.",
  "read:customers": "See customer names, e-mail addresses and gift messages alongside the other reads.",
  "read:plans": "See selling plans and their billing schedules.",
  "read:bundles": "See bundles and the contents of each box.",
  "read:mixmatch": "See Mix & Match plans and their catalogues.",
  "read:gifts": "See gift subscriptions (names and messages only together with read:customers).",
  "read:winback": "See win-back campaigns and what they recovered.",
  "read:notifications": "See the log of e-mails sent to subscribers.",
  "read:analytics": "See MRR, churn, cohorts and recovery figures.",
  "read:audit": "See the audit log: who changed what, from where, and how it ended.",
  "write:subscriptions": "Pause, resume, skip, reschedule, cancel and edit any subscription.",
  "manage:webhooks": "Add, change and remove webhook endpoints, and read their delivery log.",
};
