// The API explorer at /docs (Swagger UI, pinned in app/assets.py); no inline script, so the
// page's Content-Security-Policy allows scripts from this site and that one file only.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
