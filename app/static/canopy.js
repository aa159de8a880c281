// Canopy's small glue: copy buttons and the flash message's timer.
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

  // The invite link is selected whole when clicked (easy to copy by hand too).
  document.addEventListener("focusin", function (event) {
    if (event.target.id === "invite-link") event.target.select();
  });

  // The lobby panel says the game has started: load the table.
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (document.querySelector("[data-reload]")) location.reload();
  });

  // A move's error message clears itself after a while.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "flash" && e.detail.target.textContent.trim()) {
      clearTimeout(window.__flashTimer);
      window.__flashTimer = setTimeout(function () { e.detail.target.innerHTML = ""; }, 6000);
    }
  });
})();
