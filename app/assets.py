"""Third-party files the pages load, pinned to one version with their SRI hashes (the npm
registry's files, which the CDNs serve byte for byte). The pages' Content-Security-Policy
allows exactly these files and nothing else from another origin."""

from __future__ import annotations

HTMX_VERSION = "2.0.11"
HTMX_WS_VERSION = "2.0.4"
SWAGGER_VERSION = "5.35.0"

#: name -> (URL, integrity); htmx from its CDN (HTMX_SOURCE=cdn).
HTMX_CDN = {
    "htmx": (f"https://unpkg.com/htmx.org@{HTMX_VERSION}/dist/htmx.min.js",
             "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"),
    "ws": (f"https://unpkg.com/htmx-ext-ws@{HTMX_WS_VERSION}/dist/ws.min.js",
           "sha384-1RwI/nvUSrMRuNj7hX1+27J8XDdCoSLf0EjEyF69nacuWyiJYoQ/j39RT1mSnd2G"),
}
#: The local npm copy (HTMX_SOURCE=local), served by the app itself.
HTMX_LOCAL: dict[str, tuple[str, str | None]] = {
    "htmx": ("/static/vendor/htmx.min.js", None),
    "ws": ("/static/vendor/ws.min.js", None),
}
#: The API explorer at /docs.
SWAGGER = {
    "js": (f"https://cdn.jsdelivr.net/npm/swagger-ui-dist@{SWAGGER_VERSION}/swagger-ui-bundle.js",
           "sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9"),
    "css": (f"https://cdn.jsdelivr.net/npm/swagger-ui-dist@{SWAGGER_VERSION}/swagger-ui.css",
            "sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I"),
}
