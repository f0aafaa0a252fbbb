"""`taktik selfplay`: records written, sides alternate, a results table with intervals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from cli.bot_choice import parse_bot_options
from cli.errors import CommandError
from cli.main import main
from cli.progress import Progress
from engine import GameConfig, Side, VictoryConfig, decode_record, replay

SMALL = GameConfig(terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=400))


def write_config(tmp_path: Path, config: GameConfig = SMALL) -> Path:
    path = tmp_path / "small.json"
    path.write_bytes(msgspec.json.encode(config))
    return path


def test_selfplay_writes_every_game_and_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games"
    code = main(
        [
            "selfplay",
            "--bots",
            "random,greedy",
            "--games",
            "4",
            "--seed",
            "10",
            "--config",
            str(write_config(tmp_path)),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr()
    assert "random" in printed.out and "greedy" in printed.out and "95% CI (Wilson)" in printed.out
    assert "played, share of games (plays):" in printed.out  # per-card play counts
    assert "4/4 games" in printed.err  # the progress line ends with the count
    files = sorted(out.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{i:04d}.json" for i in range(4)]
    seeds = []
    for path in files:
        record = decode_record(path.read_bytes())
        states = list(replay(record))  # hashes are stored and verified
        assert states[-1].winner is not None
        seeds.append(record.config.seed)
    assert seeds == [10, 11, 12, 13]
    summary = (out / "summary.txt").read_text()
    greedy = next(line for line in summary.splitlines() if line.startswith("greedy"))
    assert "2/2" in greedy.replace(" ", "") or "/2" in greedy  # two games on each side


def test_bots_alternate_sides_and_options_reach_the_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen = []
    from cli import cmd_selfplay

    short = GameConfig(terrain=SMALL.terrain, victory=VictoryConfig(max_actions=120))
    args = cmd_selfplay_args(
        tmp_path, ["--bots", "mcts,random", "--games", "2", "--option", "mcts.iterations=3"], short
    )
    assert cmd_selfplay.run(args, stream=io.StringIO(), on_result=seen.append) == 0
    assert [(r.attacker, r.defender) for r in seen] == [("mcts", "random"), ("random", "mcts")]
    assert "iterations" in capsys.readouterr().out


def cmd_selfplay_args(tmp_path: Path, extra: list[str], config: GameConfig = SMALL) -> object:
    from cli.main import build_parser

    path = str(write_config(tmp_path, config))
    return build_parser().parse_args(["selfplay", "--config", path, "--seed", "3", *extra])


def test_bad_bot_names_and_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--bots", "random", "--games", "1"]) == 2
    assert main(["selfplay", "--bots", "random,stockfish", "--games", "1"]) == 2
    said = capsys.readouterr().err
    assert "--bots needs two bots, like mcts,greedy" in said
    assert "--bots random,stockfish: unknown bot 'stockfish'; known bots: greedy, mcts, oep, random, strong" in said
    with pytest.raises(CommandError, match="no option"):
        parse_bot_options(["mcts.depth=3"], ["mcts", "random"])
    with pytest.raises(CommandError, match=r"bad options for bot 'mcts'.*iterations must be at least 1"):
        parse_bot_options(["mcts.iterations=0"], ["mcts", "random"])
    with pytest.raises(CommandError, match=r"bad options for bot 'mcts'.*styles must be"):
        parse_bot_options(["mcts.styles=[[0.3, 1.0]]"], ["mcts", "random"])
    assert parse_bot_options(["mcts.iterations=40", "mcts.reply_move_limit=4"], ["mcts", "greedy"]) == {
        "mcts": {"iterations": 40, "reply_move_limit": 4}
    }


def test_progress_line_counts_up_and_finishes() -> None:
    stream = io.StringIO()
    progress = Progress(3, "games", stream, every=0)
    progress.update(1)
    progress.decisions(1234)
    progress.update(3, "done")
    progress.finish()
    text = stream.getvalue()
    assert "1/3 games" in text and "3/3 games" in text and text.endswith("\n")
    assert "· 1,234 decisions" in text and "3/3 games, 1,234 decisions in" in text
    assert json.dumps(text)  # plain text, no terminal control codes beyond \r
    assert "\x1b" not in text


def test_results_do_not_depend_on_parallel_jobs(tmp_path: Path) -> None:
    from cli import cmd_selfplay

    one, two = [], []
    cmd_selfplay.run(
        cmd_selfplay_args(tmp_path, ["--bots", "random,greedy", "--games", "2"]), io.StringIO(), one.append
    )
    cmd_selfplay.run(
        cmd_selfplay_args(tmp_path, ["--bots", "random,greedy", "--games", "2", "--jobs", "2"]),
        io.StringIO(),
        two.append,
    )
    key = lambda r: (r.index, r.winner, r.actions, r.record.hashes[-1])  # noqa: E731
    assert sorted(map(key, one)) == sorted(map(key, two))
    assert {r.winner for r in one} <= {Side.ATTACKER, Side.DEFENDER}


def test_intervals_of_the_win_rate_and_the_length_and_mirror_match_labels() -> None:
    from lab.selfplay import format_summary, play_spec, schedule, summarize, wilson_interval

    low, high = wilson_interval(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson_interval(0, 0) == (0.0, 1.0)
    results = [play_spec(spec) for spec in schedule(("random", "random"), 2, 5, SMALL)]
    summary = summarize(results)
    assert sorted(s.name for s in summary.standings) == ["random #1", "random #2"]
    first = next(s for s in summary.standings if s.name == "random #1")
    assert first.as_attacker[1] == 1 and first.as_defender[1] == 1
    assert sum(s.wins for s in summary.standings) == 2
    lengths = [r.actions for r in results]
    mean = sum(lengths) / 2
    spread = (sum((n - mean) ** 2 for n in lengths) / 1) ** 0.5
    assert summary.mean_actions == mean and summary.actions_margin == pytest.approx(1.96 * spread / 2**0.5)
    table = format_summary(summary)
    assert "random #1" in table and f"average length: {mean:.1f} ± {summary.actions_margin:.1f} actions" in table
    single = summarize(results[:1])  # one game says nothing about the spread: no "± 0.0"
    assert single.actions_margin is None
    assert f"average length: {results[0].actions:.1f} actions, " in format_summary(single)


def test_the_progress_line_counts_decisions_in_one_process_and_across_workers(tmp_path: Path) -> None:
    from cli import cmd_selfplay

    for jobs in ("1", "2"):
        stream, results = io.StringIO(), []
        cmd_selfplay.run(cmd_selfplay_args(tmp_path, ["--bots", "random,random", "--games", "2", "--jobs", jobs]),
                         stream, results.append)
        text = stream.getvalue()
        decided = int(text.rsplit("2/2 games, ", 1)[1].split(" decisions")[0].replace(",", ""))
        assert decided == sum(r.actions for r in results) > 0, text  # every decision counted once
        assert "\x1b" not in text


def test_ray_option_takes_an_optional_address_and_needs_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from lab.runner import LOCAL_RAY

    args = cmd_selfplay_args(tmp_path, ["--bots", "random,greedy", "--ray"])
    assert args.ray == LOCAL_RAY  # type: ignore[attr-defined]
    args = cmd_selfplay_args(tmp_path, ["--bots", "random,greedy", "--ray", "ray://head:10001"])
    assert args.ray == "ray://head:10001"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", None)  # as if taktik[cluster] were not installed
    code = main(["selfplay", "--bots", "random,greedy", "--games", "1", "--ray"])
    assert code == 1
    assert "pip install 'taktik[cluster]'" in capsys.readouterr().err
