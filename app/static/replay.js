// The replay's keyboard (app/templates/replay.html): ← and → step back and forth, Home and
// End jump to the deal and to the end. The steps are plain links, so the page works without
// this script; it only follows them from the keyboard, and keeps the reader's place on the
// page from one step to the next (each step is a new page).
(function () {
  "use strict";
  var KEYS = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  var PLACE = "canopy-replay-place";
  var replay = document.querySelector(".replay[data-room]");
  if (!replay) return;
  var room = replay.dataset.room;

  function remember() {
    try {
      sessionStorage.setItem(PLACE, JSON.stringify({room: room, y: window.scrollY}));
    } catch (e) { /* storage off: the next step opens at the top */ }
  }

  // Back where the reader was, after a step of the same replay.
  try {
    var place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
    sessionStorage.removeItem(PLACE);
    if (place && place.room === room) window.scrollTo(0, place.y);
  } catch (e) { /* nothing remembered */ }

  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest(".replay-nav a, .seeas a")) remember();
  });

  document.addEventListener("keydown", function (e) {
    var step = KEYS[e.key];
    if (!step || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    var target = e.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) {
      return;
    }
    var link = document.querySelector('.replay-nav a[data-step="' + step + '"]');
    if (!link) return;  // already there (Home and End still scroll the page)
    e.preventDefault();
    remember();
    window.location.assign(link.href);
  });
})();
