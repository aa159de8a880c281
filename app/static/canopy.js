// Canopy's small glue for every page and every game's table. The rules live on the server;
// this only keeps the page honest about what a click can do now:
// - a click's move carries the version the page shows (a click on a page behind the game is
//   dropped by the server without a word, so a double click never shows an error);
// - one move at a time: while a move is in flight the table is busy and clicks wait;
// - while the live connection is down a banner says so and the table takes no clicks;
// - a control with data-needs="field" stays disabled until its form has a value for field;
// - messages overlay the page and clear themselves; Back never shows a stale page.
(function () {
  "use strict";
  var FLASH_MS = 8000;

  // The words this script shows are the page's, in the reader's language: base.html renders
  // them as data attributes of <body> (data-copied, data-send-error, data-server-error).
  function words(name) {
    return (document.body && document.body.dataset[name]) || "";
  }

  function table() { return document.querySelector(".table"); }

  // -- the version a click is meant for -------------------------------------------------
  document.addEventListener("htmx:configRequest", function (e) {
    if (!/\/act$/.test(e.detail.path)) return;
    var bar = document.querySelector(".seatbar[data-version]");
    if (bar && !("expected_version" in e.detail.parameters)) {
      e.detail.parameters.expected_version = bar.dataset.version;
    }
  });

  // -- one move in flight at a time -----------------------------------------------------
  // Cleared when the request ends, read from the request itself: the clicked control may be
  // swapped out by the socket's update before the answer comes, and the events of a removed
  // element never reach the document.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var t = table();
    if (!t || !/\/act$/.test(e.detail.requestConfig.path)) return;
    if (t.getAttribute("aria-busy") === "true" || document.body.classList.contains("offline")) {
      e.preventDefault();
      return;
    }
    t.setAttribute("aria-busy", "true");
    e.detail.xhr.addEventListener("loadend", function () { t.removeAttribute("aria-busy"); });
  });
  document.addEventListener("htmx:sendError", function () {
    say(words("sendError"));
  });
  document.addEventListener("htmx:responseError", function () {
    say(words("serverError"));
  });

  // -- the live connection --------------------------------------------------------------
  function connected(up) {
    var banner = document.getElementById("connection");
    if (banner) banner.hidden = up;
    document.body.classList.toggle("offline", !up);
    var t = table();
    if (t) t.inert = !up;
  }
  document.addEventListener("htmx:wsOpen", function () { connected(true); });
  document.addEventListener("htmx:wsClose", function () { connected(false); });
  document.addEventListener("htmx:wsError", function () { connected(false); });

  // -- controls that need a choice first --------------------------------------------------
  function refreshNeeds() {
    document.querySelectorAll("[data-needs]").forEach(function (control) {
      var form = control.form || control.closest("form");
      var value = form ? new FormData(form).get(control.getAttribute("data-needs")) : null;
      control.disabled = !value;
    });
  }
  document.addEventListener("change", refreshNeeds);
  document.addEventListener("htmx:afterSettle", refreshNeeds);
  document.addEventListener("htmx:oobAfterSwap", refreshNeeds);
  document.addEventListener("DOMContentLoaded", refreshNeeds);

  // -- messages ---------------------------------------------------------------------------
  function clearLater() {
    var flash = document.getElementById("flash");
    if (!flash || !flash.textContent.trim()) return;
    clearTimeout(window.__flashTimer);
    window.__flashTimer = setTimeout(function () { flash.innerHTML = ""; }, FLASH_MS);
  }
  function say(text) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    var p = document.createElement("p");
    p.className = "flash error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    flash.replaceChildren(p);
    clearLater();
  }
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "flash") clearLater();
  });
  document.addEventListener("DOMContentLoaded", clearLater);

  document.addEventListener("click", function (event) {
    // A refusal's rule link opens the rules panel; the link then scrolls to the rule.
    if (event.target.closest("a.rule-link")) {
      var panel = document.getElementById("rules");
      if (panel) panel.open = true;
    }
    var toast = event.target.closest("#flash .flash");
    if (toast && !event.target.closest("a.rule-link")) toast.remove();
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var field = document.querySelector(copy.getAttribute("data-copy"));
      if (field) {
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(field.value);
        copy.textContent = words("copied");
      }
    }
  });

  // The invite link is selected whole when clicked (easy to copy by hand too).
  document.addEventListener("focusin", function (event) {
    if (event.target.id === "invite-link") event.target.select();
  });

  // The lobby panel says the game has started: load the table.
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (document.querySelector("[data-reload]")) location.reload();
  });

  // Back and Forward show the present, never a page kept from before.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) location.reload();
  });
})();
