// Templates to messages: the subject and body are Liquid, rendered by liquidjs in strict mode
// (an unknown variable or filter is an error the editor shows, never a silent blank). The body
// is plain text with blank-line paragraphs; the HTML part is made from the same render with every
// value escaped and URLs turned into links, so the two parts never say different things.
import { Liquid } from "liquidjs";

const text = new Liquid({ strictVariables: true, strictFilters: true, ownPropertyOnly: true, cache: 500 });
const html = new Liquid({ strictVariables: true, strictFilters: true, ownPropertyOnly: true, cache: 500, outputEscape: "escape" });

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function htmlLayout(bodyHtml: string, footerHtml: string): string {
  const paragraphs = bodyHtml
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${p.replace(/\n/g, "<br>").replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</p>`)
    .join("\n");
  return `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#222;max-width:560px;margin:0 auto;padding:16px">
${paragraphs}${footerHtml ? `\n<p style="margin-top:32px;font-size:12px;color:#666">${footerHtml}</p>` : ""}
</body></html>`;
}

/** Renders one template; `unsubscribeUrl` adds the footer line of non-essential mail. */
export function renderMessage(template: { subject: string; body: string }, vars: Record<string, unknown>, unsubscribeUrl?: string): Rendered {
  try {
    const subject = text.parseAndRenderSync(template.subject, vars).replace(/\s+/g, " ").trim();
    const bodyText = text.parseAndRenderSync(template.body, vars).trim();
    const bodyHtml = html
      .parseAndRenderSync(
        escapeHtml(template.body).replace(/\{\{(.*?)\}\}/g, (_m, inner: string) => `{{${inner.replace(/&quot;/g, '"').replace(/&#39;/g, "'")}}}`),
        vars,
      )
      .trim();
    const footer = unsubscribeUrl ? `\n\nTo stop these e-mails: ${unsubscribeUrl}` : "";
    return {
      subject,
      text: bodyText + footer,
      html: htmlLayout(bodyHtml, unsubscribeUrl ? `Don't want these e-mails? <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>.` : ""),
    };
  } catch (err) {
    throw new TemplateError((err as Error).message);
  }
}

/** Checks a template as the editor saves it: it must render with the kind's variables. */
export function checkTemplate(template: { subject: string; body: string }, variables: readonly string[]): string | null {
  const vars = Object.fromEntries(variables.map((v) => [v, v]));
  try {
    renderMessage(template, vars);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
