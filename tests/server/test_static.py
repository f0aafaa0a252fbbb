"""Static files (server/static.py): text goes out compressed, images as they are, and every file revalidates."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from pathlib import Path

from .conftest import REPO, LiveServer


def fetch(server: LiveServer, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def test_a_module_is_gzipped_for_a_browser_that_accepts_it(strict_server: LiveServer) -> None:
    source = (REPO / "web/static/js/hud.js").read_bytes()
    status, headers, body = fetch(strict_server, "/static/js/hud.js", **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert headers["content-type"].startswith("text/javascript") and headers["cache-control"] == "no-cache"
    assert gzip.decompress(body) == source and len(body) < len(source) / 2
    assert int(headers["content-length"]) == len(body)


def test_without_gzip_the_file_goes_out_as_it_is(strict_server: LiveServer) -> None:
    source = (REPO / "web/static/css/app.css").read_bytes()
    status, headers, body = fetch(strict_server, "/static/css/app.css", **{"Accept-Encoding": "identity"})
    assert status == 200 and "content-encoding" not in headers and body == source
    assert headers["vary"] == "Accept-Encoding"


def test_images_are_not_compressed_again(strict_server: LiveServer) -> None:
    status, headers, body = fetch(strict_server, "/assets/tiles/badge_damaged.png", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers and headers["cache-control"] == "no-cache"
    assert body == (REPO / "assets/tiles/badge_damaged.png").read_bytes()


def test_a_revalidation_with_the_compressed_files_tag_is_a_304(strict_server: LiveServer) -> None:
    _, headers, _ = fetch(strict_server, "/static/js/state.js", **{"Accept-Encoding": "gzip"})
    tag = headers["etag"]
    assert tag.startswith('W/"')
    status, again, body = fetch(strict_server, "/static/js/state.js",
                                **{"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert status == 304 and body == b"" and again["cache-control"] == "no-cache"


def test_the_page_itself_is_compressed_and_a_missing_file_is_a_404(strict_server: LiveServer) -> None:
    status, headers, body = fetch(strict_server, "/play/abc", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["cache-control"] == "no-cache"
    page = gzip.decompress(body).decode()
    index = Path(REPO / "web/static/index.html").read_text(encoding="utf-8")
    head, tail = index.split("<!-- modulepreload -->")
    assert page.startswith(head) and page.endswith(tail)
    assert '<link rel="modulepreload" href="/static/js/game.js"' in page
    assert fetch(strict_server, "/static/js/nothing-here.js", **{"Accept-Encoding": "gzip"})[0] == 404


def test_the_page_revalidates_to_a_304_and_goes_plain_to_a_client_without_gzip(strict_server: LiveServer) -> None:
    _, headers, zipped = fetch(strict_server, "/watch/abc", **{"Accept-Encoding": "gzip"})
    held = headers["etag"]
    status, again, body = fetch(strict_server, "/watch/abc", **{"Accept-Encoding": "gzip", "If-None-Match": held})
    assert status == 304 and body == b"" and again["etag"] == held
    status, plain, body = fetch(strict_server, "/watch/abc", **{"Accept-Encoding": "identity", "If-None-Match": held})
    assert status == 200 and "content-encoding" not in plain and body == gzip.decompress(zipped)
    assert plain["etag"] != headers["etag"] and plain["vary"] == "Accept-Encoding"
