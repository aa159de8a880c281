# Canopy: one container, SQLite on a volume at /data. Build: docker build -t canopy .
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite:////data/canopy.db \
    HTMX_SOURCE=cdn

WORKDIR /srv/canopy
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
RUN pip install -e . && mkdir -p /data

VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
# uvicorn through app/serving.py, which adds from the settings (the container's environment):
# websocket frames capped at WS_MAX_MESSAGE (--ws-max-size), deadlines for a request's headers
# and body (HEADER_TIMEOUT, BODY_TIMEOUT), and no permessage-deflate: patches are a few
# hundred bytes, and each compressed socket costs ~40 KiB of zlib state and CPU on every
# message (README, Performance).
CMD ["python", "-m", "app.serving", "--factory", "app.main:app_factory", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
