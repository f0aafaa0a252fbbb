"""Seat links: parsed into the socket's address and the token, which no printout ever shows."""

from __future__ import annotations

import pytest

from client import LinkError, SeatLink, parse_seat_link

TOKEN = "f7_LMGK4-secretsecretsecretsecretsecret0123"


@pytest.mark.parametrize(("url", "base", "socket"), [
    (f"http://127.0.0.1:8000/play/hXvVb9WRDCv2066m#{TOKEN}", "http://127.0.0.1:8000",
     "ws://127.0.0.1:8000/ws/matches/hXvVb9WRDCv2066m"),
    (f"https://taktik.example/play/abc_-9#{TOKEN}\n", "https://taktik.example",
     "wss://taktik.example/ws/matches/abc_-9"),
    (f"https://example.org/games/taktik/play/m1#{TOKEN}", "https://example.org/games/taktik",
     "wss://example.org/games/taktik/ws/matches/m1"),
])
def test_a_seat_link_gives_the_socket_and_the_token(url: str, base: str, socket: str) -> None:
    link = parse_seat_link(url)
    assert (link.base, link.socket_url, link.token) == (base, socket, TOKEN)
    assert link.record_url == f"{base}/api/matches/{link.match_id}/record"


def test_the_token_never_shows_in_a_printed_link() -> None:
    link = parse_seat_link(f"http://127.0.0.1:8000/play/hXvVb9WRDCv2066m#{TOKEN}")
    for shown in (repr(link), str(link), f"{link}", link.shown, repr([link])):
        assert TOKEN not in shown and "hXvVb9WRDCv2066m" in shown
    assert isinstance(link, SeatLink)


@pytest.mark.parametrize(("url", "words"), [
    ("http://127.0.0.1:8000/play/hXvVb9WRDCv2066m", "no #<token>"),
    (f"ftp://127.0.0.1/play/m1#{TOKEN}", "http:// or https://"),
    (f"127.0.0.1:8000/play/m1#{TOKEN}", "http:// or https://"),
    (f"http:///play/m1#{TOKEN}", "http:// or https://"),
    (f"http://127.0.0.1:80x/play/m1#{TOKEN}", "not a seat link"),
    (f"http://127.0.0.1:8000/watch/m1#{TOKEN}", "/play/<match>"),
    (f"http://127.0.0.1:8000/play/#{TOKEN}", "/play/<match>"),
    (f"http://127.0.0.1:8000/play/m!1#{TOKEN}", "/play/<match>"),
    (f"http://127.0.0.1:8000/play/m1?x=1#{TOKEN}", "?query"),
    (f"http://127.0.0.1:8000/play/m1#{TOKEN}.{TOKEN}", "hot-seat"),
    ("http://127.0.0.1:8000/play/m1#", "not a seat token"),
    ("http://127.0.0.1:8000/play/m1#tok en", "not a seat token"),
])
def test_a_wrong_link_says_what_is_wrong_without_echoing_the_token(url: str, words: str) -> None:
    with pytest.raises(LinkError) as caught:
        parse_seat_link(url)
    message = str(caught.value)
    assert words in message and TOKEN not in message and "\n" not in message
    assert caught.value.exit_code == 2
