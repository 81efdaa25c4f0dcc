// Just enough GraphQL reading for a simulator: which operation type and which root fields a
// document asks for. Arguments are taken from `variables` only (the adapter always passes
// them that way), and every root field is answered with its full object whatever the selection
// set: the simulator does not check that a document selects the fields its caller reads, real
// Shopify does. Aliases and multiple operations per document are not supported.

export interface ParsedDocument {
  type: "query" | "mutation";
  rootFields: string[];
}

const stripComments = (doc: string) => doc.replace(/#[^\n\r]*/g, "").replace(/"(?:[^"\\]|\\.)*"/g, '""');

export function parseDocument(doc: string): ParsedDocument {
  const text = stripComments(doc);
  const open = text.indexOf("{");
  if (open < 0) throw new Error("Document has no selection set");
  const head = text.slice(0, open).trim();
  if (/^(subscription|fragment)\b/.test(head)) throw new Error("Only queries and mutations are supported");
  const type = /^mutation\b/.test(head) ? "mutation" : "query";

  const rootFields: string[] = [];
  let depth = 0;
  let parens = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(") parens++;
    else if (ch === ")") parens--;
    else if (parens > 0) continue;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) break;
    } else if (depth === 1 && /[A-Za-z_]/.test(ch) && text.slice(Math.max(0, i - 3), i) !== "...") {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
      const name = match ? match[0] : ch;
      const after = text.slice(i + name.length).trimStart();
      if (after.startsWith(":")) throw new Error(`Aliases are not supported by the simulator (${name})`);
      rootFields.push(name);
      i += name.length - 1;
    }
  }
  if (rootFields.length === 0) throw new Error("Document selects no field");
  return { type, rootFields };
}
