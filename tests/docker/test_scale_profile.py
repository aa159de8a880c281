"""Issue 13, point 5: docker-compose.yml's `scale` profile and deploy/nginx.conf.

The compose file is read by the compose command this machine has (`docker-compose config` or
`docker compose config`; no engine needed), the proxy configuration is parsed here, checked by
Debian's nginx (`nginx -t`) and run by it in front of a real Canopy server: websockets pass,
/metrics does not, the client's address is the one rate limits count. Each test is skipped
with the reason where its program is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.docker.scale import (
    NGINX_CONF,
    REPLICAS,
    Directive,
    Nginx,
    compose_cli,
    compose_config,
    local_nginx_conf,
    mounts,
    nginx_installed,
    nginx_test,
    parse_nginx,
    published_ports,
    seconds,
    started_by,
    waits_for,
)
from tests.e2e.conftest import serve
from tests.engines import missing


@pytest.fixture
def compose() -> None:
    """Skip (under CI: fail) without docker-compose or ``docker compose``."""
    if compose_cli() is None:
        missing("docker-compose", "docker-compose (or bash ../shared/tools/local-docker.sh)")


@pytest.fixture
def nginx() -> None:
    """Skip (under CI: fail) without nginx."""
    if not nginx_installed():
        missing("nginx", "nginx-light")


needs_compose = pytest.mark.usefixtures("compose")
needs_nginx = pytest.mark.usefixtures("nginx")

SCALE = {"app1", "app2", "postgres", "redis", "proxy"}
HEALTHY = "service_healthy"


@needs_compose
def test_plain_up_starts_only_the_one_sqlite_container() -> None:
    config = compose_config()
    assert started_by(config) == {"canopy"}
    canopy = config["services"]["canopy"]
    assert canopy["environment"]["DATABASE_URL"] == "sqlite:////data/canopy.db"
    assert "BROADCAST_URL" not in canopy["environment"]
    assert mounts(canopy) == [("canopy-data", "/data")]
    assert published_ports(canopy) == [8000]
    assert "depends_on" not in canopy and "healthcheck" in canopy


@needs_compose
def test_the_scale_profile_adds_postgres_redis_two_replicas_and_a_proxy() -> None:
    config = compose_config("scale")
    services = config["services"]
    assert started_by(config, "scale") == {"canopy", *SCALE}
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")
    assert services["proxy"]["image"].startswith("nginx:")
    for name in SCALE:  # every one of them says when it is ready
        assert services[name]["healthcheck"]["test"], name
    assert services["postgres"]["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    # The data outlives the containers: named volumes, declared at the top level.
    assert mounts(services["postgres"]) == [("canopy-postgres", "/var/lib/postgresql/data")]
    assert mounts(services["redis"]) == [("canopy-redis", "/data")]
    assert {"canopy-data", "canopy-postgres", "canopy-redis"} <= set(config["volumes"])
    for name in ("app1", "app2"):
        app = services[name]
        env = app["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+psycopg://canopy@postgres:5432/")
        assert env["BROADCAST_URL"] == "redis://redis:6379/0"
        assert env["TRUST_FORWARDED"] == "true"
        assert waits_for(app) == {"postgres": HEALTHY, "redis": HEALTHY}
        assert "/healthz" in " ".join(app["healthcheck"]["test"])
        assert published_ports(app) == []  # reached through the proxy only
    assert waits_for(services["proxy"]) == {"app1": HEALTHY, "app2": HEALTHY}


@needs_compose
def test_the_single_container_and_the_proxy_publish_different_ports() -> None:
    """Services without a profile start under `--profile scale` too: each setup has its own
    port variable, so both can run and neither takes the other's port."""
    default = compose_config("scale")["services"]
    assert published_ports(default["canopy"]) == [8000]
    assert published_ports(default["proxy"]) == [8080]
    chosen = compose_config("scale", CANOPY_PORT="9100", CANOPY_SCALE_PORT="9200")["services"]
    assert published_ports(chosen["canopy"]) == [9100]
    assert published_ports(chosen["proxy"]) == [9200]
    assert [str(p["target"]) if isinstance(p, dict) else str(p).rsplit(":", 1)[-1]
            for p in chosen["proxy"]["ports"]] == ["80"]  # deploy/nginx.conf's `listen 80`


@needs_compose
def test_the_database_password_comes_from_the_environment() -> None:
    services = compose_config("scale", POSTGRES_PASSWORD="s3cret-from-env")["services"]
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"] == "s3cret-from-env"
    for name in ("app1", "app2"):
        env = services[name]["environment"]
        assert env["PGPASSWORD"] == "s3cret-from-env"  # libpq's own variable
        assert "s3cret" not in env["DATABASE_URL"]
    trial = compose_config("scale")["services"]  # unset: the documented local default
    assert trial["postgres"]["environment"]["POSTGRES_PASSWORD"] == "canopy-local-trial"
    assert trial["app1"]["environment"]["PGPASSWORD"] == "canopy-local-trial"


@needs_compose
def test_the_proxy_mounts_deploy_nginx_conf() -> None:
    proxy = compose_config("scale")["services"]["proxy"]
    assert mounts(proxy) == [(str(NGINX_CONF), "/etc/nginx/nginx.conf")]


def proxy_locations() -> tuple[Directive, dict[str, Directive]]:
    http = parse_nginx(NGINX_CONF.read_text()).one("http")
    server = http.one("server")
    return http, {" ".join(loc.args): loc for loc in server.all("location")}


def test_the_proxy_config_passes_websockets_to_both_replicas() -> None:
    http, locations = proxy_locations()
    upstream = http.one("upstream", "canopy")
    assert [s.args[0] for s in upstream.all("server")] == list(REPLICAS)
    sockets = locations["/ws/"]
    assert sockets.one("proxy_pass").args == ["http://canopy"]
    assert sockets.one("proxy_http_version").args == ["1.1"]
    headers = sockets.values("proxy_set_header")
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$connection_upgrade"
    upgrade = http.one("map", "$http_upgrade", "$connection_upgrade").values("default")
    assert upgrade == {"upgrade": ""}  # `default upgrade;`: a handshake asks for the upgrade
    # A socket is quiet between moves: nginx's 60 s default would cut it.
    assert seconds(sockets.one("proxy_read_timeout").args[0]) >= 3600
    assert seconds(sockets.one("proxy_send_timeout").args[0]) >= 3600


def test_the_proxy_config_sets_the_client_address_and_hides_metrics() -> None:
    _, locations = proxy_locations()
    assert locations["= /metrics"].one("return").args == ["404"]
    proxied = [loc for loc in locations.values() if loc.all("proxy_pass")]
    assert {" ".join(loc.args) for loc in proxied} == {"/ws/", "/"}
    for location in proxied:
        headers = location.values("proxy_set_header")
        # Overwritten, never $proxy_add_x_forwarded_for: the app takes the first entry.
        assert headers["X-Forwarded-For"] == "$remote_addr"
        assert headers["Host"] == "$http_host"  # with the port the Origin check compares


@needs_nginx
def test_nginx_accepts_the_config(tmp_path: Path) -> None:
    conf = local_nginx_conf(tmp_path, ("127.0.0.1:9", "127.0.0.1:9"), 8080)
    done = nginx_test(conf)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


# -- the proxy for real -------------------------------------------------------------------


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A Canopy server (both upstream lines point at it) behind deploy/nginx.conf; yields the
    proxy's and the server's base URLs. Sign-ups are limited to 2 a minute per address."""
    if not nginx_installed():
        pytest.skip("nginx is not installed: apt-get install nginx-light")
    app = serve(tmp_path_factory, "app.main:app_factory", TRUST_FORWARDED="true",
                RATE_SIGNUPS="2/minute")
    direct = next(app)
    address = direct.removeprefix("http://")
    nginx = Nginx((address, address)).start()
    try:
        yield nginx.base, direct
    finally:
        nginx.stop()
        next(app, None)


def sign_up(base: str, name: str, forwarded: str) -> httpx.Response:
    return httpx.post(base + "/api/players", json={"name": name},
                      headers={"X-Forwarded-For": forwarded}, timeout=10)


@needs_nginx
def test_through_nginx_metrics_are_refused_in_every_spelling(behind_nginx) -> None:
    proxy, direct = behind_nginx
    assert httpx.get(direct + "/metrics").status_code == 200  # the app serves it
    for path in ("/metrics", "/metrics?format=text", "//metrics", "/%6detrics"):
        assert httpx.get(proxy + path).status_code == 404, path
    assert httpx.get(proxy + "/healthz").json() == {"status": "ok"}


@needs_nginx
def test_through_nginx_a_client_cannot_choose_its_address(behind_nginx) -> None:
    """The app counts sign-ups per address (2 a minute here). Straight to the app, each
    claimed address has its own count (it trusts X-Forwarded-For); through the proxy, every
    claim is replaced by the real address, so the third sign-up is refused."""
    proxy, direct = behind_nginx
    assert [sign_up(direct, "Direct", f"198.51.100.{i}").status_code
            for i in range(3)] == [200, 200, 200]
    assert [sign_up(proxy, "Proxied", f"203.0.113.{i}").status_code
            for i in range(3)] == [200, 200, 429]


@needs_nginx
def test_through_nginx_the_origin_check_sees_the_port(behind_nginx) -> None:
    """The app compares a form's Origin with the Host it was sent to: the proxy passes the
    port (a foreign origin is still refused)."""
    proxy, _ = behind_nginx
    own = httpx.post(proxy + "/api/rooms", json={"game": "arboretum", "players": 2},
                     headers={"Origin": proxy})
    assert own.status_code == 401  # past the origin check, then: who are you?
    foreign = httpx.post(proxy + "/api/rooms", json={"game": "arboretum", "players": 2},
                         headers={"Origin": "http://elsewhere.example"})
    assert foreign.status_code == 403


@needs_nginx
def test_through_nginx_a_socket_gets_its_snapshot_and_the_next_move(behind_nginx) -> None:
    proxy, direct = behind_nginx
    # An address of its own: the rate-limit test spends the sign-ups of the proxy's.
    host = sign_up(direct, "Host", "192.0.2.7").json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    api = httpx.Client(base_url=proxy, headers=auth, timeout=10)
    rid = api.post("/api/rooms", json={"game": "arboretum", "players": 2}).json()["id"]
    assert api.post(f"/api/rooms/{rid}/bots").status_code == 200
    assert api.post(f"/api/rooms/{rid}/start").status_code == 200
    ws_url = proxy.replace("http://", "ws://") + f"/ws/rooms/{rid}?token={host['token']}"
    with connect(ws_url, open_timeout=10) as socket:
        snapshot = json.loads(socket.recv(timeout=10))
        assert snapshot["type"] == "snapshot"
        version = snapshot["version"]
        move = api.get(f"/api/rooms/{rid}/moves").json()["moves"][0]
        played = api.post(f"/api/rooms/{rid}/moves",
                          json={"move": move, "expected_version": version})
        assert played.status_code == 200, played.text
        patch = json.loads(socket.recv(timeout=10))
        assert (patch["type"], patch["from"], patch["to"]) == ("patch", version, version + 1)
