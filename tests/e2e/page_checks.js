// Checks the table conventions test runs inside the page (tests/e2e/test_conventions.py).
window.canopyChecks = {
  // Visible text smaller than `min` px, outside aria-hidden decoration and screen-reader text.
  smallText(min) {
    const small = [];
    const skip = '[aria-hidden="true"], .sr-only, script, style, template, [hidden]';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      const el = node.parentElement;
      if (!text || !el || el.closest(skip) || !el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || +style.opacity === 0) continue;
      const size = parseFloat(style.fontSize);
      if (size < min) {
        small.push(`${size}px "${text.slice(0, 40)}" in <${el.tagName.toLowerCase()} class="${el.className}">`);
      }
    }
    return small;
  },

  // Enabled controls smaller than 44 × 44 px (links inside a sentence aside); a radio or
  // checkbox counts with its label (the whole card is the target). The spaces of a board
  // (inside [data-board]) that cannot fit 44 px across a phone need 36 px: WCAG 2.5.8 asks
  // 24 px, or 24 px of spacing.
  smallTargets() {
    const small = [];
    const controls = "button:not(:disabled), a.button, select:not(:disabled), summary, " +
      "input:not([type=hidden]):not(:disabled)";
    for (const el of document.querySelectorAll(controls)) {
      if (el.closest("[inert], [hidden], .sr-only")) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const label = el.closest("label");
      const boxed = (el.type === "radio" || el.type === "checkbox") && label;
      const target = boxed ? label.getBoundingClientRect() : box;
      const least = el.closest("[data-board]") ? 36 : 44;
      if (target.width < least || target.height < least) {
        const name = (el.textContent || el.value || el.getAttribute("aria-label") || "").trim();
        small.push(`${Math.round(target.width)}×${Math.round(target.height)} ` +
          `<${el.tagName.toLowerCase()} class="${el.className}"> ${name.slice(0, 30)}`);
      }
    }
    return small;
  },

  // axe-core's color-contrast rule: each failing node, with why.
  async contrast() {
    const rules = {runOnly: {type: "rule", values: ["color-contrast"]}};
    const result = await axe.run(document, rules);
    return result.violations.flatMap((v) => v.nodes.map(
      (n) => n.failureSummary.split("\n").slice(-1)[0] + " " + n.html.slice(0, 120)));
  },
};
