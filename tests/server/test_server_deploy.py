"""deploy/: the systemd unit and the container recipe agree with what dt-server does (ops31). The unit is checked
by `systemd-analyze verify` where it is installed; no container engine runs here, so the Containerfile is read."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

DEPLOY = Path(__file__).parents[2] / "deploy"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / "dt-server.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    """With its ExecStart pointed at this environment's dt-server (the unit's /opt/... is not installed here),
    `systemd-analyze verify` says nothing."""
    here = Path(sys.executable).parent / "dt-server"
    assert here.exists()
    unit = (DEPLOY / "dt-server.service").read_text().replace("/opt/dungeon-twister/venv/bin/dt-server", str(here))
    (tmp_path / "dt-server.service").write_text(unit)
    done = subprocess.run(["systemd-analyze", "verify", "./dt-server.service"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_units_sandbox_lets_dt_server_do_what_it_does():
    """Its data directory (the example config's data_dir, records_dir and the admin socket within it) is the
    StateDirectory and writable; its sockets are TCP/UDP over IPv4 and IPv6 and Unix ones (the admin socket,
    PostgreSQL's); the files it makes are private."""
    unit = unit_settings()
    example = tomllib.loads((DEPLOY / "dt-server.example.toml").read_text())
    assert unit["StateDirectory"] == ["dt-server"] and example["data_dir"] == "/var/lib/dt-server"
    assert example["records_dir"].startswith(example["data_dir"] + "/")
    assert unit["ProtectSystem"] == ["strict"] and unit["ReadWritePaths"] == [example["data_dir"]]
    assert set(unit["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert unit["UMask"] == ["0077"] and unit["StateDirectoryMode"] == ["0700"]
    assert unit["ExecStart"][0].endswith("--config /etc/dt-server/dt-server.toml")


def test_the_container_recipe_agrees_with_itself():
    """The user is the one made, by number; the volume is the entrypoint's --data and XDG_STATE_HOME's dt-server
    (so `docker exec ... dt-server admin who` finds the admin socket); the health check asks the entrypoint's port."""
    recipe = (DEPLOY / "Containerfile").read_text()
    uid = re.search(r"useradd --system --uid (\d+) --gid (\d+)", recipe)
    assert uid and re.search(rf"^USER {uid[1]}:{uid[2]}$", recipe, re.M) and f"--gid {uid[2]} dt-server" in recipe
    volume = re.search(r'^VOLUME \["([^"]+)"\]$', recipe, re.M)[1]
    state = re.search(r"^ENV XDG_STATE_HOME=(\S+)$", recipe, re.M)[1]
    assert volume == f"{state}/dt-server"
    entry = re.search(r"^ENTRYPOINT (\[.*\])$", recipe, re.M)[1]
    words = [word.strip(' "') for word in entry.strip("[]").split(",")]
    assert words[words.index("--data") + 1] == volume
    port = words[words.index("--port") + 1]
    assert re.search(rf'CMD \["dt-server", "health", "--port", "{port}"', recipe)
    assert f"EXPOSE {port}/tcp {port}/udp" in recipe
