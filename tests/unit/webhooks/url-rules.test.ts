// The address rules of docs/decisions/053 at the level of single addresses and CIDRs (the
// integration table in tests/integration/webhooks/ssrf.test.ts covers whole URLs end to end).
import { addressRefusal, parseCidr, parseEndpointUrl, parseIp } from "../../../app/domain/outbound-webhooks/url-rules.server";

describe("webhook address rules", () => {
  it("parses IPv6 in every written form to the same bytes", () => {
    const mapped = parseIp("::ffff:10.0.0.1")!.bytes;
    expect(parseIp("::ffff:a00:1")!.bytes).toEqual(mapped);
    expect(parseIp("0:0:0:0:0:ffff:0a00:0001")!.bytes).toEqual(mapped);
    expect(parseIp("[::ffff:10.0.0.1]")!.bytes).toEqual(mapped);
    expect(parseIp("1::2::3")).toBeNull();
    expect(parseIp("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(parseIp("256.1.1.1")).toBeNull();
  });

  it.each([
    ["8.8.8.8", null],
    ["93.184.215.14", null],
    ["2606:4700:4700::1111", null],
    ["127.0.0.1", /loopback/],
    ["10.255.255.255", /private/],
    ["100.64.0.0", /carrier-grade NAT/],
    ["100.63.255.255", null],
    ["169.254.169.254", /metadata/],
    ["::ffff:8.8.8.8", /IPv4-mapped/],
    ["64:ff9b::808:808", /NAT64/],
    ["2002:808:808::1", /6to4/],
    ["fd00::1", /unique-local/],
    ["::1", /loopback/],
    ["3fff::1", null],
    ["4000::1", /not a global unicast/],
  ])("%s", (address, why) => {
    const refusal = addressRefusal(address, []);
    if (why === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(why);
  });

  it("an admitted private range admits exactly that range, never a wrapped IPv6 form", () => {
    const allowed = [parseCidr("127.0.0.1/32")!];
    expect(addressRefusal("127.0.0.1", allowed)).toBeNull();
    expect(addressRefusal("127.0.0.2", allowed)).toMatch(/loopback/);
    expect(addressRefusal("::ffff:127.0.0.1", allowed)).toMatch(/IPv4-mapped/);
  });

  it("the URL parser sees every IPv4 notation as one dotted quad", () => {
    for (const u of ["https://2130706433/", "https://0x7f000001/", "https://0177.0.0.1/", "https://127.1/", "https://0x7f.1/", "https://017700000001/"]) {
      expect(parseEndpointUrl(u)).toMatchObject({ host: "127.0.0.1", literal: true });
    }
    expect(() => parseEndpointUrl("http://example.com/")).toThrowError(/https/);
    expect(() => parseEndpointUrl("https://a:b@example.com/")).toThrowError(/credentials/);
  });
});
