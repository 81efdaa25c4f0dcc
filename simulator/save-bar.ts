// App Bridge's save bar, simulated (docs/simulator.md#save-bar). The app declares
// `<ui-save-bar id>` with a primary <button> (Save) and a plain one (Discard), and calls
// `shopify.saveBar.show(id)` / `hide(id)` / `toggle(id)` (or the element's own show/hide) when
// its form has unsaved edits. Admin, not the app, draws the bar: "Unsaved changes" over admin's
// top bar, Discard and Save. Admin's buttons click the app's hidden buttons. While the bar shows,
// leaving through admin's navigation asks first ("Leave page with unsaved changes?"), as
// Shopify admin does, and `shopify.saveBar.leaveConfirmation()` resolves only once the merchant
// chose to leave (or no bar shows). `discardConfirmation` on the element asks before a discard.
// Messages: app → admin `svc-sim:save-bar` (the bar's state), `svc-sim:leave-confirmation`;
// admin → app `svc-sim:save-bar-action` (save | discard), `svc-sim:leave-confirmed`.

/** Admin's half: runs in the simulated admin page, with `CFG` and `frame` in scope. */
export const SAVE_BAR_ADMIN_JS = `
  var saveBar = null;
  var bar = document.createElement("div");
  bar.id = "save-bar";
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", "Unsaved changes");
  bar.style.cssText = "display:none;position:fixed;top:0;left:0;right:0;min-height:44px;z-index:20;background:#1a1a1a;color:#fff;align-items:center;gap:8px;padding:6px 16px;font-size:14px";
  var barText = document.createElement("span"); barText.textContent = "Unsaved changes"; barText.style.cssText = "flex:1;font-weight:600";
  var discardBtn = document.createElement("button"); discardBtn.type = "button"; discardBtn.textContent = "Discard";
  var saveBtn = document.createElement("button"); saveBtn.type = "button"; saveBtn.textContent = "Save";
  [discardBtn, saveBtn].forEach(function (b) { b.style.cssText = "padding:6px 14px;border-radius:8px;border:1px solid #8a8a8a;font:inherit;cursor:pointer;background:#303030;color:#fff"; });
  saveBtn.style.background = "#fff"; saveBtn.style.color = "#1a1a1a";
  bar.appendChild(barText); bar.appendChild(discardBtn); bar.appendChild(saveBtn);
  document.body.appendChild(bar);
  // On a phone the bar leaves admin's Menu button uncovered, so the navigation (and its question) stays reachable.
  var barCss = document.createElement("style");
  barCss.textContent = "@media (max-width:768px){#save-bar{right:88px !important;padding:6px 8px !important}}";
  document.head.appendChild(barCss);
  function saveBarAction(action) {
    if (saveBar) frame.contentWindow.postMessage({ type: "svc-sim:save-bar-action", id: saveBar.id, action: action }, CFG.appOrigin);
  }
  function confirmDialog(title, body, stayLabel, goLabel, onGo) {
    var dialog = document.createElement("dialog");
    dialog.setAttribute("aria-labelledby", "confirm-title");
    dialog.style.cssText = "max-width:420px;width:92vw;border:0;border-radius:12px;padding:16px;box-shadow:0 8px 32px rgba(0,0,0,.3)";
    var h = document.createElement("h2"); h.id = "confirm-title"; h.textContent = title; h.style.cssText = "font-size:16px;margin:0 0 8px";
    var p = document.createElement("p"); p.textContent = body; p.style.cssText = "margin:0 0 16px";
    var row = document.createElement("div"); row.style.cssText = "display:flex;gap:8px;justify-content:flex-end";
    var stay = document.createElement("button"); stay.type = "button"; stay.textContent = stayLabel;
    var go = document.createElement("button"); go.type = "button"; go.textContent = goLabel;
    [stay, go].forEach(function (b) { b.style.cssText = "padding:8px 14px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;font:inherit;cursor:pointer"; });
    go.style.background = "#c70a24"; go.style.color = "#fff"; go.style.borderColor = "#c70a24";
    function close() { dialog.close(); dialog.remove(); }
    stay.addEventListener("click", close);
    go.addEventListener("click", function () { close(); onGo(); });
    dialog.addEventListener("cancel", function (e) { e.preventDefault(); close(); });
    row.appendChild(stay); row.appendChild(go);
    dialog.appendChild(h); dialog.appendChild(p); dialog.appendChild(row);
    document.body.appendChild(dialog);
    dialog.showModal();
  }
  saveBtn.addEventListener("click", function () { saveBarAction("save"); });
  discardBtn.addEventListener("click", function () {
    if (saveBar && saveBar.discardConfirmation) {
      confirmDialog("Discard all unsaved changes?", "If you discard changes, you will delete any edits you made since you last saved.", "Continue editing", "Discard changes", function () { saveBarAction("discard"); });
    } else saveBarAction("discard");
  });
  function renderSaveBar() {
    bar.style.display = saveBar ? "flex" : "none";
    if (!saveBar) return;
    saveBtn.disabled = !!saveBar.saveDisabled || !!saveBar.saveLoading;
    saveBtn.textContent = saveBar.saveLoading ? "Saving…" : "Save";
    discardBtn.disabled = !!saveBar.discardDisabled || !!saveBar.saveLoading;
  }
  /** Runs go() now, or after the merchant confirms leaving when the save bar shows. */
  function leaveGuard(go) {
    if (!saveBar) return go();
    confirmDialog("Leave page with unsaved changes?", "Leaving this page will delete all unsaved changes.", "Stay", "Leave page", function () {
      saveBar = null; renderSaveBar(); go();
    });
  }
  window.addEventListener("beforeunload", function (e) { if (saveBar) { e.preventDefault(); e.returnValue = ""; } });
  function onSaveBarMessage(m) {
    if (m.type === "svc-sim:save-bar") {
      if (m.visible) saveBar = { id: String(m.id), discardConfirmation: !!m.discardConfirmation, saveLoading: !!m.saveLoading, saveDisabled: !!m.saveDisabled, discardDisabled: !!m.discardDisabled };
      else if (saveBar && saveBar.id === String(m.id)) saveBar = null;
      renderSaveBar();
    } else if (m.type === "svc-sim:leave-confirmation" && typeof m.id === "string") {
      leaveGuard(function () { frame.contentWindow.postMessage({ type: "svc-sim:leave-confirmed", id: m.id }, CFG.appOrigin); });
    }
  }
`;

/** The app frame's half: runs inside the App Bridge stand-in, with `toAdmin` and `SIM_ORIGIN` in scope. */
export const SAVE_BAR_BRIDGE_JS = `
  var barStyle = document.createElement("style");
  barStyle.textContent = "ui-save-bar{display:none}";
  document.head.appendChild(barStyle);
  function barButtons(el) {
    var buttons = Array.prototype.slice.call(el.querySelectorAll("button"));
    return {
      save: buttons.find(function (b) { return b.getAttribute("variant") === "primary"; }) || null,
      discard: buttons.find(function (b) { return b.getAttribute("variant") !== "primary"; }) || null,
    };
  }
  function reportBar(el) {
    var b = barButtons(el);
    toAdmin({
      type: "svc-sim:save-bar", id: el.id, visible: el._showing,
      discardConfirmation: el.hasAttribute("discardConfirmation") || el.hasAttribute("discardconfirmation"),
      saveLoading: !!(b.save && b.save.hasAttribute("loading")), saveDisabled: !!(b.save && b.save.hasAttribute("disabled")),
      discardDisabled: !!(b.discard && b.discard.hasAttribute("disabled")),
    });
  }
  if (!customElements.get("ui-save-bar")) customElements.define("ui-save-bar", class extends HTMLElement {
    constructor() { super(); this._showing = false; }
    get showing() { return this._showing; }
    show() { this._showing = true; reportBar(this); return Promise.resolve(); }
    hide() { this._showing = false; reportBar(this); return Promise.resolve(); }
    toggle() { return this._showing ? this.hide() : this.show(); }
    connectedCallback() {
      var el = this;
      // The buttons' loading/disabled attributes follow the app's state: admin's buttons mirror them.
      this._observer = new MutationObserver(function () { if (el._showing) reportBar(el); });
      this._observer.observe(this, { attributes: true, subtree: true, childList: true });
    }
    disconnectedCallback() {
      if (this._observer) this._observer.disconnect();
      if (this._showing) { this._showing = false; reportBar(this); }
    }
  });
  function barById(id) {
    var el = document.getElementById(id);
    return el && el.tagName === "UI-SAVE-BAR" ? el : null;
  }
  var leaveWaiters = {};
  var leaveSeq = 0;
  var saveBarApi = {
    show: function (id) { var el = barById(id); return el ? el.show() : Promise.resolve(); },
    hide: function (id) { var el = barById(id); return el ? el.hide() : Promise.resolve(); },
    toggle: function (id) { var el = barById(id); return el ? el.toggle() : Promise.resolve(); },
    leaveConfirmation: function () {
      var showing = Array.prototype.slice.call(document.querySelectorAll("ui-save-bar")).some(function (el) { return el._showing; });
      if (!showing || !framed) return Promise.resolve();
      var id = "leave-" + ++leaveSeq;
      return new Promise(function (resolve) { leaveWaiters[id] = resolve; toAdmin({ type: "svc-sim:leave-confirmation", id: id }); });
    },
  };
  function hideAllBars() {
    Array.prototype.slice.call(document.querySelectorAll("ui-save-bar")).forEach(function (el) { if (el._showing) el.hide(); });
  }
  window.addEventListener("message", function (e) {
    if (e.origin !== SIM_ORIGIN || e.source !== window.parent || !e.data) return;
    if (e.data.type === "svc-sim:save-bar-action") {
      var el = barById(String(e.data.id));
      if (!el) return;
      var b = barButtons(el);
      var target = e.data.action === "save" ? b.save : b.discard;
      if (target) target.click();
    } else if (e.data.type === "svc-sim:leave-confirmed" && leaveWaiters[e.data.id]) {
      hideAllBars();
      leaveWaiters[e.data.id]();
      delete leaveWaiters[e.data.id];
    } else if (e.data.type === "svc-sim:navigate") {
      // Admin navigates only after the merchant chose to leave: the edits are gone.
      hideAllBars();
    }
  });
`;
