"""Young collections with frozen survivors, and the full collection that bounds memory (server/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import legal_actions
from server.collector import Collector
from server.creation import NewMatch
from server.match import Match
from server.protocol import Act

from .conftest import FAST_LIMITS, LiveServer, arun, create_match
from .test_matches import QUICK, Watcher, service


class Node:
    """Something the collector tracks, that can refer to itself and be weakly referred to."""

    def __init__(self) -> None:
        self.other: object = None


def cycle() -> weakref.ref[Node]:
    """A reference cycle nothing else holds: only a collection that scans it can free it."""
    node = Node()
    node.other = node
    return weakref.ref(node)


def in_a_generation(obj: object) -> bool:
    return any(o is obj for generation in range(3) for o in gc.get_objects(generation))


@pytest.fixture
def collector() -> Iterator[Collector]:
    before = gc.get_threshold()
    started = Collector(interval=0.01)
    started.start()
    try:
        yield started
    finally:
        started.stop()
        assert gc.get_threshold() == before


def test_what_survives_a_collection_is_frozen_and_still_freed_by_reference_counting(collector: Collector) -> None:
    kept = Node()
    gc.collect(0)
    assert gc.is_tracked(kept) and not in_a_generation(kept)  # frozen: no automatic collection scans it again
    gone = weakref.ref(kept)
    del kept
    assert gone() is None  # no collection needed: nothing refers to it


def test_young_cyclic_garbage_is_still_collected(collector: Collector) -> None:
    garbage = cycle()
    assert garbage() is not None
    gc.collect(0)
    assert garbage() is None


def test_a_frozen_cycle_waits_for_the_heap_to_grow_then_a_full_collection_frees_it(collector: Collector) -> None:
    node = Node()
    node.other = node
    gc.collect(0)  # survives, frozen
    garbage = weakref.ref(node)
    del node
    gc.collect(0)
    later = collector.last_full + collector.spacing
    assert garbage() is not None  # frozen: young collections no longer see it
    assert collector.check(later) is False  # the heap has not grown
    assert garbage() is not None
    grown = [object() for _ in range(int(collector.baseline * collector.growth) + 1000)]  # one small block each
    assert collector.check(later) is True
    assert garbage() is None and collector.full_collections == 2  # the one at start, and this
    assert collector.baseline >= len(grown)
    assert collector.check(collector.last_full + collector.spacing) is False  # measured again from here


def test_a_full_collection_waits_its_spacing_unless_the_heap_grew_twice_over(collector: Collector) -> None:
    soon = collector.last_full + collector.spacing / 2
    grown = [object() for _ in range(int(collector.baseline * collector.growth) + 1000)]
    assert collector.check(soon) is False  # grown once over: it waits
    assert collector.check(collector.last_full + collector.spacing) is True
    step = 1 + collector.growth
    more = [object() for _ in range(int(collector.baseline * (step * step - 1)) + 1000)]
    assert collector.check(collector.last_full + 1) is True  # twice over: at once
    assert collector.full_collections == 3 and len(grown) + len(more) > 0


def test_run_collects_the_young_generation_every_interval(collector: Collector) -> None:
    async def run() -> None:
        checking = asyncio.create_task(collector.run())
        garbage = cycle()
        deadline = time.monotonic() + 5
        while garbage() is not None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        checking.cancel()
        assert garbage() is None

    gc.disable()  # only the collector's own collections
    try:
        arun(run())
    finally:
        gc.enable()


def test_stop_thaws_everything_and_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    collector = Collector(interval=1.0, threshold=12_345)
    collector.start()
    assert gc.get_threshold()[0] == 12_345 and gc.get_freeze_count() > 0
    with pytest.raises(RuntimeError, match="already started"):
        collector.start()
    collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    kept = Node()
    gc.collect(0)
    assert in_a_generation(kept)  # nothing freezes survivors any more
    collector.stop()  # twice is harmless
    assert collector.check() is False  # a stopped collector never collects


@pytest.mark.parametrize(("options", "named"), [({"interval": 0}, "interval"), ({"growth": -1}, "growth"),
                                                ({"spacing": 0}, "spacing"), ({"threshold": 0}, "threshold"),
                                                ({"check_every": 0}, "check_every")])
def test_bad_settings_are_refused_by_name(options: dict[str, float], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Collector(**options)  # type: ignore[arg-type]


def test_matches_over_or_left_mid_game_once_unloaded_are_freed_without_a_full_collection(tmp_path: Path,
                                                                                   collector: Collector) -> None:
    """Memory stays bounded: a match survives many young collections (so it is frozen), and
    once it is unloaded (over, or idle mid-game with its clock watcher running) nothing but
    reference counting is needed to free it."""

    async def play(count: int) -> list[weakref.ref[Match]]:
        gone: list[weakref.ref[Match]] = []
        async with service(tmp_path) as (matches, creator, _):
            for n in range(count):
                match = (await creator.create(NewMatch(config=QUICK))).match
                viewer = Watcher(match.state.to_act)
                assert matches.join(match, viewer) is None
                seq = 0
                while match.status == "live" and (n % 2 == 0 or seq < 5):  # every other one left mid-game
                    seat = match.state.to_act
                    assert seat is not None
                    seq += 1
                    legal = legal_actions(match.state)
                    await matches.submit(match, seat, Act(version=match.version, seq=seq,
                                                          action=legal[(n + seq) % len(legal)]))
                    gc.collect(0)  # everything the match holds so far survives a collection: frozen
                matches.leave(match, viewer)
                matches.unload_idle(now=time.monotonic() + 3600)
                assert matches.loaded(match.id) is None
                gone.append(weakref.ref(match))
                del match, viewer
            for _ in range(3):
                await asyncio.sleep(0)  # the cancelled watchers finish
            return gone

    before = sys.getallocatedblocks()
    gone = arun(play(4))
    assert [ref() for ref in gone] == [None] * len(gone)
    assert collector.full_collections == 1  # the one at start: reference counting freed them
    assert sys.getallocatedblocks() < before * (1 + collector.growth)


def test_taktik_serve_runs_its_collections_through_the_collector(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", FAST_LIMITS).start()
    try:
        create_match(live)
    finally:
        assert live.stop() == 0
    assert "taktik.collector: full collection" in live.log_text()  # the one at start, before serving
