// Example headless customer portal: everything below is plain browser JavaScript calling the
// Subscriptions Customer API (v1) across origins with the merchant's publishable key, plus the
// platform's Customer Account API for what the platform owns (contract lines and their ids).
// Reference: {base_url}/docs, "Customer API".
//
// Settings (query string overrides them, which is how the tests point it at a local stack):
//   api      the service's base URL, e.g. https://subscriptions.example
//   key      the merchant's publishable key (svc_pk_...); safe to ship to browsers
//   account  the shop's Customer Account API GraphQL URL
//            (https://shopify.com/<shop id>/account/customer/api/2026-10/graphql)
//   token    optional: a customer access token to sign in with at once
const params = new URLSearchParams(location.search);
const SETTINGS = {
  api: params.get("api") ?? "https://subscriptions.example",
  key: params.get("key") ?? "svc_pk_REPLACE_ME",
  account: params.get("account") ?? "",
};

const state = { customerToken: null, session: null, config: null };
const $ = (sel, root = document) => root.querySelector(sel);

function show(message, kind = "status") {
  $("#status").textContent = kind === "status" ? message : "";
  $("#error").textContent = kind === "error" ? message : "";
}

/** One Customer API call. Errors arrive in the envelope { error: { code, message, request_id } }. */
async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${SETTINGS.key}` };
  if (state.session) headers["X-Service-Session"] = state.session;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${SETTINGS.api}/api/customer/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (res.ok) return json;
  // Sessions last 30 minutes: exchange the customer token again and retry once.
  if (res.status === 401 && json.error?.code === "credential_expired" && state.customerToken && path !== "/session") {
    await signIn(state.customerToken);
    return api(method, path, body);
  }
  const err = new Error(json.error?.message ?? `HTTP ${res.status}`);
  err.code = json.error?.code;
  throw err;
}

async function signIn(customerToken) {
  state.session = null;
  const session = await api("POST", "/session", { customer_access_token: customerToken });
  state.customerToken = customerToken;
  state.session = session.session_token;
  return session;
}

/** Contract lines come from the platform (the Customer API returns summaries only). */
async function contractLines() {
  if (!SETTINGS.account) return new Map();
  const query = `query PortalContracts { customer { subscriptionContracts(first: 50) { nodes { id lines(first: 50) { nodes { id title variantTitle quantity } } } } } }`;
  const res = await fetch(SETTINGS.account, {
    method: "POST",
    headers: { Authorization: state.customerToken, "Content-Type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const json = await res.json();
  const nodes = json.data?.customer?.subscriptionContracts?.nodes ?? [];
  return new Map(nodes.map((c) => [c.id, c.lines.nodes]));
}

/** The shopper's own mutation at the platform; a refusal arrives as userErrors. */
async function account(query, variables) {
  const res = await fetch(SETTINGS.account, {
    method: "POST",
    headers: { Authorization: state.customerToken, "Content-Type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const json = await res.json();
  const payload = json.data ? Object.values(json.data)[0] : null;
  const problem = json.errors?.[0] ?? payload?.userErrors?.[0];
  if (problem || !payload) throw new Error(problem?.message ?? `The platform answered HTTP ${res.status}`);
  return payload;
}

const money = (amount, currency) => new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
const day = (iso) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : "none");

/** Wraps a form or button action: disables it while running, reports the outcome. */
function action(el, run) {
  return async (event) => {
    event?.preventDefault();
    const button = el.tagName === "BUTTON" ? el : $("button", el);
    button.disabled = true;
    try {
      show(await run());
    } catch (err) {
      show(err.message, "error");
    } finally {
      button.disabled = false;
    }
  };
}

async function renderBox(card, sub) {
  const box = await api("GET", `/subscriptions/${encodeURIComponent(sub.contract_id)}/box`);
  if (!box.build_a_box) return;
  const editor = $(".box-editor", card);
  editor.hidden = false;
  const body = $(".box-body", card);
  body.replaceChildren();
  const size = `${box.bundle.box_size_min ?? 1}–${box.bundle.box_size_max ?? "any"} items`;
  const intro = document.createElement("p");
  intro.textContent = box.editable
    ? `Pick ${size} for ${box.period}. Picking closes ${day(box.edit_closes_at)}.`
    : `Picking is closed (${box.closed_reason.replaceAll("_", " ")}).`;
  body.append(intro);
  if (!box.editable) return;
  const form = document.createElement("form");
  form.className = "box-form";
  const picked = new Map((box.selection?.items ?? []).map((i) => [i.variant_id, i.quantity]));
  for (const item of box.menu.items) {
    const label = document.createElement("label");
    label.className = "box-item";
    label.append(`${item.product_title} – ${item.variant_title ?? ""}`);
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.step = "1";
    input.name = item.variant_id;
    input.value = String(picked.get(item.variant_id) ?? 0);
    label.append(input);
    form.append(label);
  }
  const save = document.createElement("button");
  save.type = "submit";
  save.textContent = "Save my box";
  form.append(save);
  form.addEventListener(
    "submit",
    action(form, async () => {
      const items = [...form.querySelectorAll("input")].map((i) => ({ variant_id: i.name, quantity: Number(i.value) })).filter((i) => i.quantity > 0);
      const saved = await api("POST", `/subscriptions/${encodeURIComponent(sub.contract_id)}/box`, { items });
      return `Box saved: ${saved.box.selection.items.map((i) => `${i.quantity} × ${i.variant_title ?? i.product_title}`).join(", ")}.`;
    }),
  );
  body.append(form);
}

function renderCard(sub, lines) {
  const card = $("#subscription-template").content.firstElementChild.cloneNode(true);
  const c = `/subscriptions/${encodeURIComponent(sub.contract_id)}`;
  card.dataset.contractId = sub.contract_id;
  $(".title", card).textContent = sub.product_title ?? sub.order_name ?? "Subscription";
  const meta = $(".meta", card);
  const describe = (next) => {
    meta.textContent = `${sub.status.toLowerCase()} · ${sub.frequency_label ?? ""} · ${sub.charge_amount === null ? "" : money(sub.charge_amount, sub.currency_code)} · next charge ${next ? day(next) : "to be confirmed"}`;
  };
  describe(sub.next_billing_at);
  const actions = state.config.portal_actions;

  const reschedule = $(".reschedule", card);
  if (actions.hide_change_date || sub.status !== "ACTIVE") reschedule.hidden = true;
  const latest = new Date();
  latest.setUTCMonth(latest.getUTCMonth() + state.config.reschedule_max_months);
  $("input", reschedule).max = latest.toISOString().slice(0, 10);
  reschedule.addEventListener(
    "submit",
    action(reschedule, async () => {
      const r = await api("POST", `${c}/reschedule`, { date: $("input", reschedule).value });
      sub.next_billing_at = r.next_billing_at;
      describe(r.next_billing_at);
      return `Next charge moved to ${day(r.next_billing_at)}.`;
    }),
  );

  const quantity = $(".quantity", card);
  const line = lines?.[0];
  if (!line || actions.hide_edit_quantity || sub.status !== "ACTIVE") quantity.hidden = true;
  else $("input", quantity).value = String(line.quantity);
  quantity.addEventListener(
    "submit",
    action(quantity, async () => {
      const q = Number($("input", quantity).value);
      await api("POST", `${c}/lines/${encodeURIComponent(line.id)}`, { quantity: q });
      return `Quantity changed to ${q}.`;
    }),
  );

  const payment = $(".payment", card);
  api("GET", `${c}/payment-method`).then(
    ({ payment_method: pm }) => {
      payment.textContent = pm
        ? `Paying with ${pm.brand ?? pm.kind} ending ${pm.last4 ?? ""}${pm.expiry_state === "expiring_soon" ? " (expires soon)" : ""}.`
        : "Billed by invoice.";
      if (!pm) $(".update-payment", card).hidden = true;
    },
    (err) => (payment.textContent = err.message),
  );
  const update = $(".update-payment", card);
  update.addEventListener(
    "click",
    action(update, async () => {
      await api("POST", `${c}/payment-method/update-email`);
      return "We e-mailed you a secure link to update your payment method.";
    }),
  );

  // Skip, pause and cancel are the shopper's own rights at Shopify: they go to the Customer Account
  // API with the shopper's token. GET /config only says which buttons to show (a HIDE list hides
  // buttons; it does not forbid the action) and what the cancel flow offers first.
  const flow = state.config.cancel_flow;
  const skipButton = $(".skip", card);
  const pauseButton = $(".pause", card);
  const cancelButton = $(".cancel", card);
  const cancelFlow = $(".cancel-flow", card);
  const offerPause = $(".offer-pause", card);
  const offerSkip = $(".offer-skip", card);
  const refreshButtons = () => {
    const active = sub.status === "ACTIVE";
    skipButton.hidden = actions.hide_skip || !active || !sub.next_billing_at;
    pauseButton.hidden = actions.hide_pause || !active;
    cancelButton.hidden = actions.hide_cancel || sub.status === "CANCELLED" || sub.status === "EXPIRED";
    $(".plan-actions", card).hidden = skipButton.hidden && pauseButton.hidden && cancelButton.hidden;
    if (!active) reschedule.hidden = quantity.hidden = true;
  };
  const setStatus = (status) => {
    sub.status = status;
    cancelFlow.hidden = true;
    describe(sub.next_billing_at);
    refreshButtons();
  };
  const skip = async () => {
    await account(
      `mutation PortalSkip($input: SubscriptionBillingCycleInput!) { subscriptionBillingCycleSkip(billingCycleInput: $input) { billingCycle { cycleIndex } userErrors { message } } }`,
      { input: { contractId: sub.contract_id, selector: { date: sub.next_billing_at } } },
    );
    const skipped = sub.next_billing_at;
    sub.next_billing_at = null; // the platform moves it; the next GET /subscriptions shows the new date
    setStatus(sub.status);
    return `The delivery of ${day(skipped)} is skipped.`;
  };
  const statusMutation = async (name) => {
    await account(
      `mutation Portal${name}($id: ID!) { subscriptionContract${name}(subscriptionContractId: $id) { contract { id status } userErrors { message } } }`,
      {
        id: sub.contract_id,
      },
    );
  };
  const pause = async () => {
    await statusMutation("Pause");
    setStatus("PAUSED");
    return "Your subscription is paused.";
  };
  const saveEvent = (offer_type, event_type) => api("POST", `${c}/save-event`, { offer_type, event_type }).catch(() => undefined); // analytics: best effort

  skipButton.addEventListener("click", action(skipButton, skip));
  pauseButton.addEventListener("click", action(pauseButton, pause));
  cancelButton.addEventListener("click", () => {
    const offers = [];
    offerPause.hidden = !(flow.offer_pause && !actions.hide_pause && sub.status === "ACTIVE");
    offerSkip.hidden = !(flow.offer_skip && !actions.hide_skip && sub.status === "ACTIVE" && sub.next_billing_at);
    if (!offerPause.hidden) offers.push("pause");
    if (!offerSkip.hidden) offers.push("skip");
    $(".offers-intro", card).hidden = $(".offers", card).hidden = offers.length === 0;
    for (const offer of offers) saveEvent(offer, "shown");
    cancelFlow.hidden = false;
  });
  offerPause.addEventListener(
    "click",
    action(offerPause, async () => {
      const done = await pause();
      await saveEvent("pause", "accepted");
      return done;
    }),
  );
  offerSkip.addEventListener(
    "click",
    action(offerSkip, async () => {
      const done = await skip();
      cancelFlow.hidden = true;
      await saveEvent("skip", "accepted");
      return done;
    }),
  );
  $(".keep", card).addEventListener("click", () => (cancelFlow.hidden = true));

  const cancel = $(".cancel-reason", card);
  const reasons = flow.reasons.length ? flow.reasons : ["Too expensive", "Too much product", "Other"];
  for (const reason of reasons) $("select", cancel).append(new Option(reason, reason));
  const survey = flow.show_reason_survey;
  $(".survey", cancel).hidden = !survey;
  cancel.addEventListener(
    "submit",
    action(cancel, async () => {
      if (survey) await api("POST", `${c}/cancel-reason`, { reason: $("select", cancel).value });
      await statusMutation("Cancel");
      setStatus("CANCELLED");
      return survey ? "Your subscription is cancelled. Thanks for telling us why." : "Your subscription is cancelled.";
    }),
  );
  refreshButtons();

  renderBox(card, sub).catch((err) => show(err.message, "error"));
  return card;
}

async function load() {
  const [config, { subscriptions }, lines] = await Promise.all([api("GET", "/config"), api("GET", "/subscriptions"), contractLines()]);
  state.config = config;
  const list = $("#subscriptions");
  list.replaceChildren(...subscriptions.map((sub) => renderCard(sub, lines.get(sub.contract_id))));
  if (subscriptions.length === 0) list.textContent = "You have no subscriptions.";
  $("#portal").hidden = false;
  $("#signin").hidden = true;
}

$("#signin-form").addEventListener(
  "submit",
  action($("#signin-form"), async () => {
    const session = await signIn($("#customer-token").value.trim());
    $("#who").textContent = `Signed in until ${new Date(session.expires_at).toLocaleTimeString()}.`;
    await load();
    return "Signed in.";
  }),
);

if (params.get("token")) {
  $("#customer-token").value = params.get("token");
  $("#signin-form").requestSubmit();
}
