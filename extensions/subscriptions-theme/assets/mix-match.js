// Mix & Match picker: enables "Add" between min and max picks, then adds every pick as one cart
// line with the shared selling plan and the _rc_mm_group property (one group per selection).
(function () {
  for (const root of document.querySelectorAll(".svc-mix-match")) {
    const boxes = [...root.querySelectorAll('input[type="checkbox"]')];
    const add = root.querySelector(".svc-mix-match__add");
    const min = Number(root.dataset.min);
    const max = Number(root.dataset.max);
    const picked = () => boxes.filter((b) => b.checked);
    root.addEventListener("change", () => {
      const n = picked().length;
      add.disabled = n < min || n > max;
    });
    add.addEventListener("click", async () => {
      const group = `${root.dataset.group}-${Date.now().toString(36)}`;
      const items = picked().map((b) => ({
        id: Number(b.value),
        quantity: 1,
        selling_plan: Number(root.dataset.sellingPlan),
        properties: { _rc_mm_group: group },
      }));
      add.disabled = true;
      const res = await fetch(`${window.Shopify?.routes?.root ?? "/"}cart/add.js`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ items }),
      });
      if (res.ok) window.location.href = `${window.Shopify?.routes?.root ?? "/"}cart`;
      else add.disabled = false;
    });
  }
})();
