// Mix & Match picker (extensions/subscriptions-theme/blocks/mix-match.liquid). Enables "Add"
// between min and max picks, stops picking past max, announces the count, and adds every pick
// as one cart line carrying the plan's selling plan and the _rc_mm_group line property with the
// plan's cart_group_id (docs/decisions/067-theme-blocks.md). No key, no app call: the data is in
// the block's attributes, written from the app-owned metafield.
(function () {
  for (const root of document.querySelectorAll(".svc-mix-match")) {
    const boxes = Array.from(root.querySelectorAll('input[type="checkbox"]'));
    const add = root.querySelector(".svc-mix-match__add");
    const status = root.querySelector(".svc-mix-match__status");
    const error = root.querySelector(".svc-mix-match__error");
    const d = root.dataset;
    const min = Number(d.min);
    const max = Number(d.max);
    const picked = () => boxes.filter((b) => b.checked);
    const update = () => {
      const n = picked().length;
      add.disabled = n < min || n > max;
      for (const b of boxes) b.disabled = !b.checked && n >= max;
      status.textContent = d.selectedText.replace("[picked]", String(n));
    };
    root.addEventListener("change", update);
    update();
    add.addEventListener("click", async () => {
      const items = picked().map((b) => ({
        id: Number(b.value),
        quantity: 1,
        selling_plan: Number(d.sellingPlan),
        properties: { _rc_mm_group: d.group },
      }));
      add.disabled = true;
      error.hidden = true;
      try {
        const res = await fetch(`${d.cartAddUrl}.js`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ items }),
        });
        if (!res.ok) throw new Error(`cart answered ${res.status}`);
        window.location.href = d.cartUrl;
      } catch {
        error.hidden = false;
        update();
      }
    });
  }
})();
