"""Helpers for the scale profile's tests: the compose command this machine has, the compose
file as compose reads it, and deploy/nginx.conf parsed into blocks, checked with Debian's
nginx and run by it in front of real servers on loopback ports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from tests.engines import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
#: The replicas as deploy/nginx.conf names them: compose's service names and the app's port.
REPLICAS = ("app1:8000", "app2:8000")


def compose_cli() -> list[str] | None:
    """``docker-compose`` (v1) or ``docker compose`` (v2), whichever answers; ``None``."""
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker") and subprocess.run(
            ["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return None


def compose_config(*profiles: str, **env: str) -> dict[str, Any]:
    """The compose file after interpolation, as ``compose config`` prints it (with the
    environment ``env`` added). Compose v1 prints every service whatever the profiles; v2
    only those of the active profiles: callers look at each service's ``profiles``."""
    cli = compose_cli()
    assert cli is not None
    flags = [arg for profile in profiles for arg in ("--profile", profile)]
    clean = {k: v for k, v in os.environ.items()
             if k not in {"CANOPY_PORT", "CANOPY_SCALE_PORT", "POSTGRES_PASSWORD",
                          "SECRET_KEY", "COMPOSE_PROFILES"}}
    done = subprocess.run([*cli, *flags, "config"], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = yaml.safe_load(done.stdout)
    return parsed


def started_by(config: dict[str, Any], *profiles: str) -> set[str]:
    """The services ``compose [--profile P] up`` starts: those without a profile, and those
    of an active one."""
    return {name for name, service in config["services"].items()
            if not service.get("profiles") or set(service["profiles"]) & set(profiles)}


def published_ports(service: dict[str, Any]) -> list[int]:
    """Host ports a service publishes (compose prints ``"8000:8000"`` or long syntax)."""
    ports = []
    for entry in service.get("ports", []):
        if isinstance(entry, dict):
            ports.append(int(entry["published"]))
        else:
            ports.append(int(str(entry).rsplit(":", 1)[0].rsplit(":", 1)[-1]))
    return ports


def mounts(service: dict[str, Any]) -> list[tuple[str, str]]:
    """(source, target) of a service's volumes: ``"name:/path:rw"`` (v1) or long syntax (v2)."""
    found = []
    for entry in service.get("volumes", []):
        if isinstance(entry, dict):
            found.append((str(entry["source"]), str(entry["target"])))
        else:
            source, target = str(entry).split(":")[:2]
            found.append((source, target))
    return found


def waits_for(service: dict[str, Any]) -> dict[str, str]:
    """The services this one waits for, and the condition (v2 adds keys such as
    ``required``)."""
    return {name: needs["condition"] for name, needs in service.get("depends_on", {}).items()}


# -- nginx ------------------------------------------------------------------------------------


@dataclass
class Directive:
    """One nginx directive: its name, arguments and, for a block, the directives inside."""

    name: str
    args: list[str]
    block: list[Directive] = field(default_factory=list)

    def all(self, name: str) -> list[Directive]:
        return [d for d in self.block if d.name == name]

    def one(self, name: str, *args: str) -> Directive:
        found = [d for d in self.all(name) if list(args) == d.args[:len(args)]]
        assert len(found) == 1, f"{len(found)} '{name} {' '.join(args)}' in '{self.name}'"
        return found[0]

    def values(self, name: str) -> dict[str, str]:
        """``proxy_set_header Upgrade $http_upgrade;`` → ``{"Upgrade": "$http_upgrade"}``."""
        return {d.args[0]: " ".join(d.args[1:]) for d in self.all(name)}


TOKENS = re.compile(r'#[^\n]*|"(?:[^"\\]|\\.)*"|[{};]|[^\s{};"#]+')


def parse_nginx(text: str) -> Directive:
    """nginx's configuration syntax (directives, blocks, quotes, comments) as a tree."""
    root = Directive("main", [])
    stack: list[Directive] = [root]
    words: list[str] = []
    for token in TOKENS.findall(text):
        if token.startswith("#"):
            continue
        if token in ("{", ";"):
            directive = Directive(words[0], [w.strip('"') for w in words[1:]])
            stack[-1].block.append(directive)
            if token == "{":
                stack.append(directive)
            words = []
        elif token == "}":
            assert not words, f"unterminated directive {words}"
            stack.pop()
        else:
            words.append(token)
    assert len(stack) == 1 and not words, "unbalanced braces in the nginx configuration"
    return root


def seconds(duration: str) -> float:
    """nginx's time notation (``90``, ``75s``, ``10m``, ``1h``) in seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    match = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", duration)
    assert match is not None, duration
    return int(match[1]) * units[match[2] or "s"]


def local_nginx_conf(folder: Path, replicas: tuple[str, str], listen: int) -> Path:
    """deploy/nginx.conf as shipped, but for this machine: the two replicas' addresses and
    the listening port replaced, temporary files in ``folder`` (the shipped file keeps the
    image's defaults). Everything else — headers, timeouts, locations — is unchanged."""
    text = NGINX_CONF.read_text()
    for shipped, local in zip(REPLICAS, replicas, strict=True):
        assert text.count(f"server {shipped} ") == 1, shipped
        text = text.replace(f"server {shipped} ", f"server {local} ")
    assert text.count("listen 80;") == 1
    text = text.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    temp = "".join(f"    {kind}_temp_path {folder / kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = text.replace("http {\n", "http {\n" + temp, 1)
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


def nginx_test(conf: Path) -> subprocess.CompletedProcess[str]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    return subprocess.run([nginx, "-t", "-c", str(conf), "-g", f"pid {conf.parent}/nginx.pid;"],
                          capture_output=True, text=True, timeout=30)


def nginx_installed() -> bool:
    return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()


class Nginx:
    """Debian's nginx running deploy/nginx.conf in front of two servers on loopback."""

    def __init__(self, replicas: tuple[str, str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="canopy-nginx-"))
        self.port = free_port()
        self.conf = local_nginx_conf(self.folder, replicas, self.port)
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = self.folder / "nginx.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Nginx:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [nginx, "-c", str(self.conf),
                 "-g", f"daemon off; pid {self.folder}/nginx.pid;"],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(self.base + "/healthz", timeout=2)
                return self
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start: {self.log.read_text()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
