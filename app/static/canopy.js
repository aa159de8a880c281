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

  // A move's error message clears itself after a while.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "flash" && e.detail.target.textContent.trim()) {
      clearTimeout(window.__flashTimer);
      window.__flashTimer = setTimeout(function () { e.detail.target.innerHTML = ""; }, 6000);
    }
  });
})();
