// The seat bar between the server's pushes: the running clocks tick down, and a vote to
// hand an away player's seat to a bot shows once it opens. The server decides both; this
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
})();
