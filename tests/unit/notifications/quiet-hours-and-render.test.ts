// Quiet hours in the shop's time zone, and templates in liquidjs strict mode (docs/decisions/101).
import { afterQuietHours } from "../../../app/domain/notifications/settings.server";
import { renderMessage, checkTemplate } from "../../../app/domain/notifications/render.server";
import { MESSAGE_KINDS, SAMPLE_VARIABLES } from "../../../app/domain/notifications/catalogue";
import { NOTIFICATION_EVENT_NAMES } from "../../../app/surfaces/notification-events";

describe("quiet hours", () => {
  const ny = { timezone: "America/New_York", quietStart: 21, quietEnd: 8 };

  it("a message due inside quiet hours waits for their end in the shop's time zone", () => {
    // 23:30 in New York (EST, UTC-5) is 04:30 UTC: it goes at 08:00 New York = 13:00 UTC.
    expect(afterQuietHours(new Date("2031-01-15T04:30:00Z"), ny).toISOString()).toBe("2031-01-15T13:00:00.000Z");
    // 07:59 local is still quiet; 08:00 local is not.
    expect(afterQuietHours(new Date("2031-01-15T12:59:00Z"), ny).toISOString()).toBe("2031-01-15T13:00:00.000Z");
    expect(afterQuietHours(new Date("2031-01-15T13:00:00Z"), ny).toISOString()).toBe("2031-01-15T13:00:00.000Z");
  });

  it("outside quiet hours, or without any, the due time stands", () => {
    const noon = new Date("2031-01-15T17:00:00Z"); // 12:00 New York
    expect(afterQuietHours(noon, ny)).toEqual(noon);
    expect(afterQuietHours(noon, { timezone: "UTC", quietStart: null, quietEnd: null })).toEqual(noon);
  });

  it("daylight saving time moves the UTC end of quiet hours (EDT, UTC-4 in July)", () => {
    expect(afterQuietHours(new Date("2031-07-15T03:00:00Z"), ny).toISOString()).toBe("2031-07-15T12:00:00.000Z");
  });

  it("a window that does not cross midnight (13-15 in Kolkata, UTC+5:30)", () => {
    const s = { timezone: "Asia/Kolkata", quietStart: 13, quietEnd: 15 };
    // 13:45 IST = 08:15 UTC -> 15:00 IST = 09:30 UTC
    expect(afterQuietHours(new Date("2031-03-01T08:15:00Z"), s).toISOString()).toBe("2031-03-01T09:30:00.000Z");
  });
});

describe("templates", () => {
  it("every default template renders with its sample variables, in both parts", () => {
    for (const k of MESSAGE_KINDS) {
      const r = renderMessage(k, SAMPLE_VARIABLES);
      expect(r.subject.length, k.kind).toBeGreaterThan(5);
      expect(r.text).not.toContain("{{");
      expect(r.html).toContain("<p");
    }
  });

  it("every message kind is a name the Admin API's event filter accepts", () => {
    const published: readonly string[] = NOTIFICATION_EVENT_NAMES;
    expect(MESSAGE_KINDS.map((k) => k.kind).filter((k) => !published.includes(k))).toEqual([]);
  });

  it("strict mode: an unknown variable or filter is an error, not a blank", () => {
    expect(checkTemplate({ subject: "Hi {{ first_nme }}", body: "x" }, ["first_name"])).toMatch(/first_nme/);
    expect(checkTemplate({ subject: "Hi", body: "{{ amount | shout }}" }, ["amount"])).toMatch(/shout/);
    expect(checkTemplate({ subject: "Hi {{ amount }}", body: "ok" }, ["amount"])).toBeNull();
  });

  it("values are escaped in the HTML part and left as written in the text part", () => {
    const r = renderMessage({ subject: "{{ product_title }}", body: "Box: {{ product_title }}" }, { product_title: "<b>Tea & Co</b>" });
    expect(r.text).toBe("Box: <b>Tea & Co</b>");
    expect(r.html).toContain("Box: &lt;b&gt;Tea &amp; Co&lt;/b&gt;");
    expect(r.html).not.toContain("<b>Tea");
  });
});
