"""`taktik serve --workers N` starts each worker with every option it was given."""

from __future__ import annotations

from cli.main import build_parser
from cli.serve_workers import worker_command


def test_a_worker_gets_every_option_of_the_command() -> None:
    parser = build_parser()
    given = parser.parse_args([
        "serve", "--workers", "3", "--port", "8123", "--host", "0.0.0.0", "--data", "/srv/taktik",
        "--database", "postgresql://taktik@db:5432/taktik", "--bus", "redis://bus:6379/0", "--pool-size", "7",
        "--limits", "/etc/taktik/limits.json", "--bot", "greedy", "--bot-think", "0.75", "--abandon-after", "60",
        "--compress",
        "--allow-origin", "https://a.example", "--allow-origin", "https://b.example", "--log-level", "warning",
    ])
    command = worker_command(given, 8123)
    assert command[1:4] == ["-m", "cli", "serve"]
    worker = parser.parse_args(command[3:])
    expected = {**vars(given), "workers": 1, "reuse_port": True}
    assert vars(worker) == expected


def test_a_worker_leaves_unset_options_at_their_defaults() -> None:
    parser = build_parser()
    given = parser.parse_args(["serve", "--workers", "2", "--database", "postgresql://db/t", "--bus", "redis://r/0"])
    worker = parser.parse_args(worker_command(given, 9000)[3:])
    assert vars(worker) == {**vars(given), "port": 9000, "workers": 1, "reuse_port": True}
