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
  // A live page's socket (htmx's ws extension) is watched four times a second:
  // - open: after HEARTBEAT quiet seconds (WS_HEARTBEAT_SECONDS) the page asks "ping" and
  //   the server answers "pong"; no answer within HEARTBEAT means the connection is lost even
  //   though nothing closed it (a network gone quiet): the banner shows, a new socket opens
  //   (within 4.5 s of the last message at the default 2 s);
  // - connecting for longer than twice HEARTBEAT: that attempt is given up for a new one;
  // - closed, whatever the code (htmx itself retries only 1006, 1011, 1012 and 1013): a new
  //   socket after a short jittered pause, never over 2 s, so a page is back within 3 s of a
  //   restarted server answering. Only a refusal that would only repeat (4400-4499 but 4408
  //   and 4429: a room one may no longer read, a game this server cannot open) is final.
  // Every message counts as heard, so a busy table never pings.
  var HEARTBEAT = 1000 * (parseFloat(document.body && document.body.dataset.heartbeat) || 2);
  var live = {heard: 0, since: 0, asked: 0, code: 0, next: 0, retries: 0};

  function pause(retries) {
    return Math.min(2000, 250 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
  }
  htmx.config.wsReconnectDelay = pause;

  // Each new socket replaces the last one outright: the old one's handlers go, so a late
  // close of a socket given up never starts a second reconnect.
  var made = null;
  htmx.createWebSocket = function (url) {
    if (made) {
      made.onopen = made.onclose = made.onerror = made.onmessage = null;
      try { made.close(); } catch (e) { /* already closed */ }
    }
    made = new WebSocket(url);
    live.since = Date.now();
    live.asked = 0;
    return made;
  };

  // The ws extension keeps its socket wrapper in the element's htmx data.
  function wrapper() {
    var element = document.querySelector("[ws-connect]");
    var data = element && element["htmx-internal-data"];
    return data && data.webSocket;
  }
  function final(code) { return code >= 4400 && code < 4500 && code !== 4408 && code !== 4429; }
  function renew(w) {
    live.retries += 1;
    live.next = Date.now() + pause(live.retries);
    w.init();
  }

  function connected(up) {
    var banner = document.getElementById("connection");
    if (banner) banner.hidden = up;
    document.body.classList.toggle("offline", !up);
    var t = table();
    if (t) t.inert = !up;
  }
  function watch() {
    var w = wrapper();
    if (!w || !w.socket) return;
    var socket = w.socket, now = Date.now();
    if (socket.readyState === WebSocket.OPEN) {
      if (live.asked > live.heard) {  // a ping waits for its answer
        if (now - live.asked > HEARTBEAT) {
          connected(false);
          renew(w);
        }
      } else if (now - live.heard >= HEARTBEAT) {
        live.asked = now;
        socket.send("ping");
      }
    } else if (socket.readyState === WebSocket.CONNECTING) {
      if (now - live.since > 2 * HEARTBEAT) renew(w);
    } else if (live.code && !final(live.code) && now >= live.next) {
      renew(w);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector("[ws-connect]")) setInterval(watch, 250);
  });
  document.addEventListener("htmx:wsOpen", function () {
    live.heard = Date.now();
    live.retries = 0;
    live.code = 0;
    connected(true);
  });
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    live.heard = Date.now();
    if (e.detail.message === "pong") e.preventDefault();
  });
  document.addEventListener("htmx:wsClose", function (e) {
    connected(false);
    var code = e.detail.event.code;
    // htmx retries these by itself (after pause()); the watch takes every other close.
    live.code = [1006, 1011, 1012, 1013].indexOf(code) >= 0 ? 0 : code || 1005;
    live.next = Date.now() + pause(live.retries);
  });
  document.addEventListener("htmx:wsError", function () { connected(false); });
  window.addEventListener("offline", function () { connected(false); });
  window.addEventListener("online", function () {
    var w = wrapper();
    if (!w || !w.socket) return;
    // A socket that outlived the blip is trusted again; the next quiet spell's ping checks it.
    if (w.socket.readyState === WebSocket.OPEN) connected(true);
    else renew(w);
  });

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

  // -- options that apply only at some player counts --------------------------------------
  // An option marked data-players="1" (app/web/render.py option_fields) shows only while the
  // players chosen beside it (the new-table form's select players-<game>) are one of those.
  function refreshPlayerOptions() {
    document.querySelectorAll(".game-options").forEach(function (group) {
      var count = group.querySelector("select[name^='players-']");
      if (!count) return;
      group.querySelectorAll("[data-players]").forEach(function (option) {
        option.hidden = option.dataset.players.split(" ").indexOf(count.value) < 0;
      });
    });
  }
  document.addEventListener("change", refreshPlayerOptions);
  document.addEventListener("DOMContentLoaded", refreshPlayerOptions);

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

  // The invite and watch links are selected whole when clicked (easy to copy by hand too).
  document.addEventListener("focusin", function (event) {
    if (event.target.id === "invite-link" || event.target.id === "watch-link") event.target.select();
  });

  // The lobby panel says the game has started: load the table.
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (document.querySelector("[data-reload]")) location.reload();
  });

  // Back and Forward show the present, never a page kept from before.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) location.reload();
  });

  // -- your move: title, favicon, sound, notification ------------------------------------
  // The seat bar says data-yours="true" while the game waits for the reader's own seat (not
  // while a bot plays it for them). When that starts, the title and the favicon say so, a
  // short chime plays if the player turned sound on, and a notification appears if the tab
  // is in the background and the player allowed them; when it ends, title and favicon come
  // back. The two switches (.turn-signals, in the table's top bar, for seated people only)
  // are kept in localStorage. A spectator's seat bar never says yours: nothing happens.
  var SOUND_KEY = "canopy.sound";
  var NOTIFY_KEY = "canopy.notify";
  var TURN_ICON = "/static/turn-favicon.svg";
  var turn = {yours: false, title: "", icon: "", note: null, audio: null, kept: {}};

  function switchedOn(key) {
    try { return localStorage.getItem(key) === "on"; } catch (e) { return turn.kept[key] === "on"; }
  }
  function setSwitch(key, on) {
    turn.kept[key] = on ? "on" : "off";
    try { localStorage.setItem(key, turn.kept[key]); } catch (e) { /* this page only */ }
  }
  function canNotify() { return "Notification" in window; }
  function notifying() {
    return canNotify() && Notification.permission === "granted" && switchedOn(NOTIFY_KEY);
  }

  // Two short rising tones made with WebAudio (no sound file). A browser lets a page play
  // sound once the person has interacted with it; the sound switch's own click counts.
  function chime() {
    var Sound = window.AudioContext || window.webkitAudioContext;
    if (!Sound) return;
    try {
      var ctx = turn.audio || (turn.audio = new Sound());
      if (ctx.state === "suspended") ctx.resume();
      [660, 880].forEach(function (hz, i) {
        var start = ctx.currentTime + i * 0.16;
        var tone = ctx.createOscillator();
        var level = ctx.createGain();
        tone.type = "sine";
        tone.frequency.value = hz;
        level.gain.setValueAtTime(0.0001, start);
        level.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
        level.gain.exponentialRampToValueAtTime(0.0001, start + 0.15);
        tone.connect(level);
        level.connect(ctx.destination);
        tone.start(start);
        tone.stop(start + 0.16);
      });
    } catch (e) { /* no sound device: the title and the icon still say it */ }
  }

  // A new <link> rather than a new href: every browser redraws the tab's icon for it.
  function setIcon(href) {
    var link = document.querySelector("link[rel~='icon']");
    if (!link || link.getAttribute("href") === href) return;
    var fresh = link.cloneNode();
    fresh.setAttribute("href", href);
    link.replaceWith(fresh);
  }

  function notify() {
    if (!document.hidden || !notifying()) return;
    var signals = document.querySelector(".turn-signals");
    var t = table();
    try {
      var note = new Notification(words("yourMove"), {
        body: (signals && signals.dataset.note) || turn.title,
        icon: TURN_ICON,
        tag: "canopy-turn-" + (t ? t.dataset.room : ""),
      });
      note.onclick = function () { window.focus(); note.close(); };
      turn.note = note;
    } catch (e) { /* a browser that shows notifications only from a service worker */ }
  }

  function closeNote() {
    if (turn.note) turn.note.close();
    turn.note = null;
  }

  // After every swap (and once on load): has it become, or stopped being, the reader's move?
  // On load the page is in front of the person: only a page loaded in the background (the
  // lobby's reload when the game starts) also chimes and notifies.
  function checkTurn(loading) {
    var bar = document.querySelector(".seatbar");
    var yours = !!(bar && bar.dataset.yours === "true");
    if (yours === turn.yours) return;
    turn.yours = yours;
    if (!yours) {
      document.title = turn.title;
      setIcon(turn.icon);
      closeNote();
      return;
    }
    turn.title = document.title;
    var link = document.querySelector("link[rel~='icon']");
    turn.icon = link ? link.getAttribute("href") : "";
    document.title = "● " + words("yourMove") + " — " + turn.title;
    setIcon(TURN_ICON);
    if (loading && !document.hidden) return;
    if (switchedOn(SOUND_KEY)) chime();
    notify();
  }
  document.addEventListener("htmx:oobAfterSwap", function () { checkTurn(false); });
  document.addEventListener("htmx:afterSettle", function () { checkTurn(false); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) closeNote();
  });

  // The switches show their state with aria-pressed; the bell appears only where the browser
  // has notifications, the group only where this script runs.
  function showSwitches() {
    var group = document.querySelector(".turn-signals");
    if (!group) return;
    group.hidden = false;
    group.querySelectorAll("[data-signal]").forEach(function (control) {
      if (control.dataset.signal === "notify") {
        control.hidden = !canNotify();
        control.setAttribute("aria-pressed", String(notifying()));
      } else {
        control.setAttribute("aria-pressed", String(switchedOn(SOUND_KEY)));
      }
    });
  }
  document.addEventListener("click", function (event) {
    var control = event.target.closest(".turn-signals [data-signal]");
    if (!control) return;
    var blocked = control.closest(".turn-signals").dataset.blocked;
    if (control.dataset.signal === "sound") {
      setSwitch(SOUND_KEY, !switchedOn(SOUND_KEY));
      if (switchedOn(SOUND_KEY)) chime();  // a sample, and the click that unlocks sound
    } else if (notifying()) {
      setSwitch(NOTIFY_KEY, false);
    } else if (Notification.permission === "denied") {
      say(blocked);
    } else {
      Promise.resolve(Notification.requestPermission()).then(function (answer) {
        setSwitch(NOTIFY_KEY, answer === "granted");
        if (answer === "denied") say(blocked);
        showSwitches();
      });
    }
    showSwitches();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showSwitches();
    checkTurn(true);
  });
})();
