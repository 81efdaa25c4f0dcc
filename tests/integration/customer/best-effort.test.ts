// Customer API rules 10 and 12 (/docs#tag/Customer-API:-Portal) with real failures of PostgreSQL,
// over real HTTP: cancel-reason and save-event still answer { ok: true } when the insert fails
// (a CHECK constraint that refuses every new row, added for the test and dropped after), and
// notification-activity answers an empty feed when its read fails (the table renamed away for the
// test and back), never an error.
import { prisma } from "../../../app/db.server";
import { seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { useStack } from "../../support/stack";
import { client, enc } from "./helpers";

const stack = useStack({ workers: false }, 60_000);
let s: CustomerShop;
const api = client(stack, () => s);

beforeAll(async () => {
  s = await seedCustomerShop(stack.control, stack.installShop);
});

/** Runs `work` while PostgreSQL refuses every new row of `table`. */
async function refusingInserts<T>(table: "cancel_reasons" | "save_events", work: () => Promise<T>): Promise<T> {
  await prisma.$executeRawUnsafe(`ALTER TABLE ${table} ADD CONSTRAINT test_refuse_inserts CHECK (false) NOT VALID`);
  try {
    return await work();
  } finally {
    await prisma.$executeRawUnsafe(`ALTER TABLE ${table} DROP CONSTRAINT test_refuse_inserts`);
  }
}

it("cancel-reason and save-event answer ok when the insert fails, and store nothing", async () => {
  const session = await api.sessionFor(s.customers.a);
  const contract = enc(s.contracts.a.id);
  const reasons = () => prisma.cancelReason.count({ where: { shopId: s.shopId } });
  const events = () => prisma.saveEvent.count({ where: { shopId: s.shopId } });
  const [r0, e0] = [await reasons(), await events()];

  const reason = await refusingInserts("cancel_reasons", () =>
    api.call("POST", `/subscriptions/${contract}/cancel-reason`, { session, body: { reason: "Too much" } }),
  );
  expect([reason.status, reason.body]).toEqual([200, { ok: true }]);
  const saved = await refusingInserts("save_events", () =>
    api.call("POST", `/subscriptions/${contract}/save-event`, { session, body: { offer_type: "pause", event_type: "accepted" } }),
  );
  expect([saved.status, saved.body]).toEqual([200, { ok: true }]);
  expect([await reasons(), await events()]).toEqual([r0, e0]);

  // The same calls with the table accepting rows store them (the refusal above was the database's).
  await api.call("POST", `/subscriptions/${contract}/cancel-reason`, { session, body: { reason: "Too much" } });
  expect(await reasons()).toBe(r0 + 1);
});

it("notification-activity answers an empty feed when its read fails", async () => {
  const session = await api.sessionFor(s.customers.a);
  await prisma.notificationLogEntry.create({
    data: { shopId: s.shopId, customerGid: s.customers.a, event: "renewal_reminder", category: "reminders", status: "delivered", title: "Soon" },
  });
  expect(((await api.call("GET", "/notification-activity", { session })).body.activity as unknown[]).length).toBe(1);
  await prisma.$executeRawUnsafe(`ALTER TABLE notification_log RENAME TO notification_log_away`);
  try {
    const res = await api.call("GET", "/notification-activity", { session });
    expect([res.status, res.body]).toEqual([200, { activity: [] }]);
  } finally {
    await prisma.$executeRawUnsafe(`ALTER TABLE notification_log_away RENAME TO notification_log`);
  }
});
