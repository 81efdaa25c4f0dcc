// App Bridge's resource picker, simulated (docs/simulator.md#resource-picker): the app calls
// `shopify.resourcePicker({ type: "product", multiple, selectionIds })`; the stand-in asks admin
// by postMessage (`svc-sim:resource-picker`), admin shows a dialog of the shop's products and
// variants (read from the control API, the simulator's own origin) and answers
// `svc-sim:resource-picker-result` with Shopify's selection shape: products, each with the
// variants picked, or undefined when cancelled. Two script halves, one per frame.

/** Admin's half: runs in the simulated admin page, with `CFG` (appOrigin, shop) and `frame` in scope. */
export const PICKER_ADMIN_JS = `
  function openPicker(req) {
    var dialog = document.createElement("dialog");
    dialog.setAttribute("aria-labelledby", "picker-title");
    dialog.style.cssText = "max-width:520px;width:92vw;border:0;border-radius:12px;padding:16px;box-shadow:0 8px 32px rgba(0,0,0,.3)";
    var chosen = {};
    (req.selectionIds || []).forEach(function (s) { chosen[s.id] = s.variants ? s.variants.map(function (v) { return v.id; }) : null; });
    function reply(selection) {
      frame.contentWindow.postMessage({ type: "svc-sim:resource-picker-result", id: req.id, selection: selection }, CFG.appOrigin);
      dialog.close(); dialog.remove();
    }
    fetch("/_sim/shops/" + encodeURIComponent(CFG.shop) + "/products").then(function (r) { return r.json(); }).then(function (products) {
      var h = document.createElement("h2"); h.id = "picker-title"; h.textContent = "Select products"; h.style.cssText = "font-size:16px;margin:0 0 12px";
      dialog.appendChild(h);
      var list = document.createElement("ul"); list.style.cssText = "list-style:none;margin:0;padding:0;max-height:60vh;overflow:auto";
      var boxes = [];
      products.forEach(function (p) {
        var li = document.createElement("li"); li.style.cssText = "padding:6px 0;border-bottom:1px solid #eee";
        var label = document.createElement("label"); label.style.cssText = "display:flex;gap:8px;align-items:center;font-weight:600";
        var box = document.createElement("input"); box.type = "checkbox"; box.checked = p.id in chosen;
        label.appendChild(box); label.appendChild(document.createTextNode(p.title)); li.appendChild(label);
        var vboxes = [];
        var vl = document.createElement("ul"); vl.style.cssText = "list-style:none;margin:4px 0 0 24px;padding:0";
        p.variants.forEach(function (v) {
          var vli = document.createElement("li");
          var vlabel = document.createElement("label"); vlabel.style.cssText = "display:flex;gap:8px;align-items:center";
          var vbox = document.createElement("input"); vbox.type = "checkbox";
          vbox.checked = p.id in chosen && (chosen[p.id] === null || chosen[p.id].indexOf(v.id) >= 0);
          vbox.addEventListener("change", function () { box.checked = vboxes.some(function (x) { return x.box.checked; }); });
          vlabel.appendChild(vbox); vlabel.appendChild(document.createTextNode(p.title + " – " + v.title)); vli.appendChild(vlabel); vl.appendChild(vli);
          vboxes.push({ box: vbox, v: v });
        });
        box.addEventListener("change", function () { vboxes.forEach(function (x) { x.box.checked = box.checked; }); });
        li.appendChild(vl); list.appendChild(li);
        boxes.push({ p: p, box: box, vboxes: vboxes });
      });
      dialog.appendChild(list);
      var bar = document.createElement("div"); bar.style.cssText = "display:flex;gap:8px;justify-content:flex-end;margin-top:12px";
      var cancel = document.createElement("button"); cancel.type = "button"; cancel.textContent = "Cancel";
      var select = document.createElement("button"); select.type = "button"; select.textContent = "Select";
      [cancel, select].forEach(function (b) { b.style.cssText = "padding:8px 14px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;font:inherit;cursor:pointer"; });
      select.style.background = "#1a1a1a"; select.style.color = "#fff";
      cancel.addEventListener("click", function () { reply(undefined); });
      select.addEventListener("click", function () {
        reply(boxes.filter(function (b) { return b.box.checked; }).map(function (b) {
          return { id: b.p.id, title: b.p.title, totalVariants: b.p.variants.length, variants: b.vboxes.filter(function (x) { return x.box.checked; }).map(function (x) { return { id: x.v.id, title: x.v.title }; }) };
        }));
      });
      dialog.addEventListener("cancel", function (e) { e.preventDefault(); reply(undefined); });
      bar.appendChild(cancel); bar.appendChild(select); dialog.appendChild(bar);
      document.body.appendChild(dialog);
      dialog.showModal();
    });
  }
`;

/** The app's half: `shopify.resourcePicker`, inside the App Bridge stand-in (toAdmin, SIM_ORIGIN in scope). */
export const PICKER_BRIDGE_JS = `
  var pickerCalls = {};
  var pickerSeq = 0;
  window.addEventListener("message", function (e) {
    if (e.origin !== SIM_ORIGIN || e.source !== window.parent || !e.data || e.data.type !== "svc-sim:resource-picker-result") return;
    var done = pickerCalls[e.data.id];
    if (done) { delete pickerCalls[e.data.id]; done(e.data.selection || undefined); }
  });
  function resourcePicker(options) {
    options = options || {};
    return new Promise(function (resolve) {
      var id = "picker-" + (++pickerSeq);
      pickerCalls[id] = resolve;
      toAdmin({ type: "svc-sim:resource-picker", id: id, resourceType: options.type || "product", multiple: options.multiple !== false, selectionIds: options.selectionIds || [] });
    });
  }
`;
