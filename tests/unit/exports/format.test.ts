// Export encoders (app/domain/shared/format.ts): CSV and JSONL byte rules, the JSONL key rule,
// and formula-injection neutralisation (CSV free-text cells only).
import { encoder, exportFilename, snakeKey, type Column } from "../../../app/domain/shared/format";

type Row = { title: string | null; amount: string | null; n: number | null; ok: boolean | null; id: string };
const columns: Column<Row>[] = [
  { label: "Contract #", kind: "id", value: (r) => r.id },
  { label: "Product title", kind: "text", value: (r) => r.title },
  { label: "Charge amount", kind: "money", value: (r) => r.amount },
  { label: "Interval count", kind: "number", value: (r) => r.n },
  { label: "Giftable", kind: "boolean", value: (r) => r.ok },
];

describe("export formats", () => {
  it("JSONL keys are the snake_case of the labels", () => {
    expect(snakeKey("Plan group ID")).toBe("plan_group_id");
    expect(snakeKey("Contract #")).toBe("contract");
    expect(snakeKey("Mix & Match ID")).toBe("mix_match_id");
    expect(snakeKey("Pre-anchor behavior")).toBe("pre_anchor_behavior");
    expect(snakeKey("Shipping address 1")).toBe("shipping_address_1");
  });

  it('CSV: BOM, quoted header, CRLF after every row, quotes doubled, empty as "", newlines kept inside quotes', () => {
    const csv = encoder("csv", columns);
    const text = csv.start() + csv.row({ id: "g1", title: 'Say "hi"\r\nnow', amount: null, n: 2, ok: false });
    expect(text).toBe('\uFEFF"Contract #","Product title","Charge amount","Interval count","Giftable"\r\n"g1","Say ""hi""\r\nnow","","2","false"\r\n');
  });

  it("CSV neutralises formulas in free-text cells only; money and ids are never altered", () => {
    const csv = encoder("csv", columns);
    for (const lead of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csv.row({ id: `${lead}1`, title: `${lead}SUM(A1)`, amount: "-5.00", n: -1, ok: true })).toBe(
        `"${lead}1","'${lead}SUM(A1)","-5.00","-1","true"\r\n`,
      );
    }
    expect(csv.row({ id: "x", title: "a=b", amount: "1.00", n: 1, ok: null })).toBe('"x","a=b","1.00","1",""\r\n');
  });

  it("JSONL: no BOM, no header, keys in column order, numbers and booleans typed, null for empty, formulas untouched", () => {
    const jsonl = encoder("jsonl", columns);
    expect(jsonl.start()).toBe("");
    const line = jsonl.row({ id: "g1", title: "=1+1 \u{1F375}\n", amount: "19.99", n: 3, ok: true });
    expect(line).toBe('{"contract":"g1","product_title":"=1+1 \u{1F375}\\n","charge_amount":"19.99","interval_count":3,"giftable":true}\n');
    expect(Object.keys(JSON.parse(line))).toEqual(["contract", "product_title", "charge_amount", "interval_count", "giftable"]);
    expect(jsonl.row({ id: "g2", title: null, amount: null, n: null, ok: null })).toBe(
      '{"contract":"g2","product_title":null,"charge_amount":null,"interval_count":null,"giftable":null}\n',
    );
  });

  it("names the file <dataset>-<YYYY-MM-DD>.<ext> by the UTC day", () => {
    expect(exportFilename("mix_match", "jsonl", new Date("2026-11-21T23:59:59Z"))).toBe("mix_match-2026-11-21.jsonl");
    expect(exportFilename("plans", "csv", new Date("2026-01-02T00:00:00Z"))).toBe("plans-2026-01-02.csv");
  });
});
