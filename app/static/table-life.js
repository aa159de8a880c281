// The seat bar between the server's pushes: the running clocks tick down, and a vote to
// hand an away player's seat to a bot shows once it opens. And the game's prompt stays in
// view after a move or a push that concerns the reader (below). The server decides both; this
// only keeps the page's reading of them current. Times are the server's (epoch seconds):
// the table carries the server's clock when the page was made (data-now).
(function () {
  "use strict";
  var offset = 0;

  function serverNow() { return Date.now() / 1000 + offset; }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clockText(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(x) : m + ":" + pad(x);
  }

  function tick() {
    document.querySelectorAll(".clock.running[data-left]").forEach(function (clock) {
      var left = parseFloat(clock.dataset.left) - (serverNow() - parseFloat(clock.dataset.at));
      clock.textContent = clockText(left);
      clock.classList.toggle("low", left < 60);
    });
    document.querySelectorAll("form.vote[hidden][data-opens]").forEach(function (form) {
      if (serverNow() >= parseFloat(form.dataset.opens)) form.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var table = document.querySelector(".table[data-now]");
    if (!table) return;
    offset = parseFloat(table.dataset.now) - Date.now() / 1000;
    tick();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:oobAfterSwap", tick);

  // -- the prompt stays where the person looks ----------------------------------------------
  // Each game marks the region that says what is asked with data-prompt, and may mark the
  // place where the answer is given now, when it is elsewhere on the page, with
  // data-prompt-focus (a lab to bid in). After a swap that concerns the reader — their own
  // move came back, or the prompt changed while the game waits for them (their turn came, a
  // bonus to answer, an outbid) — the page brings the prompt (or its focus) into view if
  // neither is: smoothly, unless the reader prefers reduced motion. A push that does not
  // concern them (another seat's step while they wait) never moves the page, and neither
  // does one whose prompt or focus they can already see. After their own move that left the
  // prompt as it was (a step within a phase), the page moves only if nothing they can click
  // is left in view.
  var seen = {prompt: null, yours: false, clicked: null, timer: 0};

  function promptRegion() { return document.querySelector("[data-prompt]"); }

  function promptText() {
    var region = promptRegion();
    return region ? region.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function inView(element) {
    if (!element) return false;
    var box = element.getBoundingClientRect();
    if (!box.width && !box.height) return false;
    var margin = Math.min(48, box.height / 2);
    return box.bottom > margin && box.top < window.innerHeight - margin;
  }

  function controlInView() {
    var controls = document.querySelectorAll(".table button[hx-post$='/act']:not(:disabled)");
    for (var i = 0; i < controls.length; i++) if (inView(controls[i])) return true;
    return false;
  }

  function bringIntoView(element) {
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({behavior: still ? "auto" : "smooth", block: "start"});
  }

  function followPrompt() {
    seen.timer = 0;
    var region = promptRegion();
    var bar = document.querySelector(".seatbar");
    if (!region || !bar) return;
    var text = promptText();
    var yours = bar.dataset.yours === "true";
    var changed = text !== seen.prompt || (yours && !seen.yours);
    var own = seen.clicked !== null && bar.dataset.version !== seen.clicked;
    seen.prompt = text;
    seen.yours = yours;
    if (own) seen.clicked = null;
    if (!text || !(own || (yours && changed))) return;
    var focus = document.querySelector("[data-prompt-focus]");
    if (inView(region) || inView(focus)) return;
    if (!changed && controlInView()) return;
    bringIntoView(focus || region);
  }

  // The regions of one push arrive as several swaps: look once they are all in.
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!seen.timer) seen.timer = setTimeout(followPrompt, 30);
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.defaultPrevented || !/\/act$/.test(e.detail.requestConfig.path)) return;
    var bar = document.querySelector(".seatbar[data-version]");
    seen.clicked = bar ? bar.dataset.version : null;
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (/\/act$/.test(e.detail.requestConfig.path) && !e.detail.successful) seen.clicked = null;
  });
  document.addEventListener("DOMContentLoaded", function () {
    var bar = document.querySelector(".seatbar");
    seen.prompt = promptText();
    seen.yours = !!(bar && bar.dataset.yours === "true");
  });
})();
