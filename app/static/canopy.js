// Canopy's small glue: copy buttons, the player-count picker, and keyboard shortcuts.
// Everything that matters works without it; the rules live on the server.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var field = document.querySelector(copy.getAttribute("data-copy"));
      if (field) {
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(field.value);
        copy.textContent = "Copied";
      }
    }
  });

  // Keep the "players" select within the chosen game's range.
  function syncPlayers() {
    var chosen = document.querySelector('input[name="game"]:checked');
    var select = document.getElementById("players");
    if (!chosen || !select) return;
    var min = +chosen.dataset.min, max = +chosen.dataset.max;
    Array.prototype.forEach.call(select.options, function (o) {
      o.disabled = +o.value < min || +o.value > max;
    });
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = String(Math.max(min, 2 <= max ? 2 : min));
  }
  document.addEventListener("change", function (e) { if (e.target.name === "game") syncPlayers(); });
  document.addEventListener("DOMContentLoaded", syncPlayers);

  // A move's error message clears itself after a while.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "flash" && e.detail.target.textContent.trim()) {
      clearTimeout(window.__flashTimer);
      window.__flashTimer = setTimeout(function () { e.detail.target.innerHTML = ""; }, 6000);
    }
  });
})();
