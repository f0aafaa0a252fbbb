"""scripts/gen_tiles.py: byte-stable output, a truthful manifest, seamless overlays, a strict CLI.

The script is run as a subprocess with the current interpreter, once per session for each
output set (fixtures), so the whole module costs a few generations.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_tiles.py"
ASSETS = ROOT / "assets" / "tiles"

BITS = {"N": 1, "E": 2, "S": 4, "W": 8}
MASKS = ["".join(d for d in "NESW" if value & BITS[d]) for value in range(1, 16)]
TILE = (640, 396)


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def load_manifest(directory: Path, name: str = "manifest.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((directory / name).read_text(encoding="ascii"))
    return data


@pytest.fixture(scope="session")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Generate the 1x set with a contact sheet and the 2x set, side by side in two processes."""
    base = tmp_path_factory.mktemp("gen_tiles")
    commands = {
        "1x": ["--out", base / "tiles", "--sheet", base / "sheet.png"],
        "2x": ["--out", base / "tiles2x", "--scale", "2"],
    }
    procs = {
        key: subprocess.Popen(
            [sys.executable, str(SCRIPT), *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for key, args in commands.items()
    }
    out = {}
    for key, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        out[key] = (Path(str(commands[key][1])), stdout)
    return out


@pytest.fixture(scope="session")
def generated(outputs: dict[str, tuple[Path, str]]) -> tuple[Path, Path, str]:
    """A fresh 1x set plus a contact sheet, and the script's summary line."""
    out, stdout = outputs["1x"]
    return out, out.parent / "sheet.png", stdout


@pytest.fixture(scope="session")
def generated_2x(outputs: dict[str, tuple[Path, str]]) -> Path:
    return outputs["2x"][0]


@pytest.fixture(scope="session")
def manifest() -> dict[str, Any]:
    return load_manifest(ASSETS)


@pytest.fixture(scope="session")
def images() -> dict[str, Image.Image]:
    """Every committed image, decoded, by name."""
    out = {}
    for name, entry in load_manifest(ASSETS)["images"].items():
        with Image.open(ASSETS / entry["file"]) as im:
            im.load()
            out[name] = im.copy()
    return out


def face_contains(x: int, y: int, scale: int = 1) -> bool:
    """Whether the centre of pixel (x, y) of a tile image lies on the top-face diamond."""
    return abs(2 * x + 1 - 640 * scale) + 2 * abs(2 * y + 1 - 320 * scale) < 640 * scale


# --- output is the script's, byte for byte -----------------------------------------------------------
def test_regenerating_reproduces_the_committed_assets_byte_for_byte(
    generated: tuple[Path, Path, str],
) -> None:
    out, _, _ = generated
    fresh = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    committed = {p.name: p.read_bytes() for p in sorted(ASSETS.iterdir())}
    assert sorted(fresh) == sorted(committed), "the file lists differ: run scripts/gen_tiles.py and commit"
    drifted = [name for name in fresh if fresh[name] != committed[name]]
    assert not drifted, f"assets/tiles drifted from scripts/gen_tiles.py: {drifted}; regenerate and commit"


def test_the_summary_line_reports_files_bytes_and_seconds(generated: tuple[Path, Path, str]) -> None:
    out, _, stdout = generated
    lines = stdout.strip().splitlines()
    assert len(lines) == 1
    found = re.fullmatch(
        r"gen_tiles\.py: wrote (\d+) files \((\d+) bytes\) to (.+) in \d+\.\d\d s; sheet .+", lines[0]
    )
    assert found, lines[0]
    files = list(out.iterdir())
    assert (int(found[1]), int(found[2]), found[3]) == (
        len(files),
        sum(p.stat().st_size for p in files),
        str(out),
    )


def test_the_manifest_lists_exactly_the_files_present(manifest: dict[str, Any]) -> None:
    listed = {entry["file"] for entry in manifest["images"].values()}
    present = {p.name for p in ASSETS.iterdir()}
    assert present == listed | {"manifest.json", manifest["atlas"]["file"], manifest["atlas"]["half"]["file"]}
    assert all(entry["file"] == f"{name}.png" for name, entry in manifest["images"].items())


def test_the_atlas_holds_every_image_with_its_exact_alpha_apart_from_each_other(
    manifest: dict[str, Any], images: dict[str, Image.Image]
) -> None:
    """The atlas is a lossy WebP: alpha (picking, tall tiles) is exact, colour within 30 dB of the PNG."""
    assert manifest["atlas"]["file"] == "atlas.webp"
    with Image.open(ASSETS / manifest["atlas"]["file"]) as atlas:
        atlas.load()
        assert atlas.format == "WEBP" and list(atlas.size) == manifest["atlas"]["size"]
        sheet = atlas.convert("RGBA")
        rects = {name: entry["rect"] for name, entry in manifest["images"].items()}
        assert sorted(rects) == sorted(images)
        for name, (x, y, w, h) in rects.items():
            assert [w, h] == list(images[name].size), name
            assert x >= 0 and y >= 0 and x + w <= atlas.width and y + h <= atlas.height, name
            packed = sheet.crop((x, y, x + w, y + h))
            original = images[name].convert("RGBA")
            assert packed.getchannel("A").tobytes() == original.getchannel("A").tobytes(), name
            assert colour_psnr(packed, original) > 30, name
    # A transparent gutter of at least 8 px between any two images (drawing one small never shows another).
    boxes = sorted(rects.values())
    for i, (x0, y0, w0, h0) in enumerate(boxes):
        for x1, y1, w1, h1 in boxes[i + 1 :]:
            apart_x = x1 >= x0 + w0 + 8 or x0 >= x1 + w1 + 8
            apart_y = y1 >= y0 + h0 + 8 or y0 >= y1 + h1 + 8
            assert apart_x or apart_y, ((x0, y0, w0, h0), (x1, y1, w1, h1))


def test_the_half_atlas_holds_every_image_at_half_size_in_the_halved_rectangles(
    manifest: dict[str, Any], images: dict[str, Image.Image]
) -> None:
    """What the board loads first: each image halved (alpha-weighted 2 x 2 means), exact alpha, colour within 28 dB."""
    half = manifest["atlas"]["half"]
    assert half["file"] == "atlas-half.webp" and half["size"] == [s // 2 for s in manifest["atlas"]["size"]]
    with Image.open(ASSETS / half["file"]) as atlas:
        atlas.load()
        assert atlas.format == "WEBP" and list(atlas.size) == half["size"]
        sheet = atlas.convert("RGBA")
    for name, entry in manifest["images"].items():
        x, y, w, h = entry["rect"]
        assert x % 2 == y % 2 == w % 2 == h % 2 == 0, name
        packed = sheet.crop((x // 2, y // 2, (x + w) // 2, (y + h) // 2))
        expected = images[name].convert("RGBa").reduce(2).convert("RGBA")
        assert packed.getchannel("A").tobytes() == expected.getchannel("A").tobytes(), name
        assert colour_psnr(packed, expected) > 28, name


def colour_psnr(a: Image.Image, b: Image.Image) -> float:
    """Peak signal-to-noise ratio (dB) of the colour of two RGBA images, over the pixels ``b`` shows."""
    shown = b.getchannel("A").point(lambda v: 255 if v else 0)
    count = shown.histogram()[255]
    if not count:
        return math.inf
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    diff = Image.composite(diff, Image.new("RGB", diff.size), shown)
    hist = diff.histogram()  # 256 bins per band
    error = sum(n * (v % 256) ** 2 for v, n in enumerate(hist))
    mse = error / (3 * count)
    return math.inf if mse == 0 else 10 * math.log10(255**2 / mse)


def test_the_manifest_is_sorted_and_stably_formatted() -> None:
    text = (ASSETS / "manifest.json").read_text(encoding="ascii")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2) + "\n"


def test_every_named_image_of_rules_12_is_in_the_set(manifest: dict[str, Any]) -> None:
    names = set(manifest["images"])
    terrain = [
        "terrain-01-plain",
        "terrain-02-rough",
        "terrain-03-forest",
        "terrain-04-urban",
        "terrain-05-hill",
        "terrain-06-water",
        "terrain-10-industrial",
        "ground",
    ]
    highlights = [
        "highlight_move",
        "highlight_move_adv",
        "highlight_attack",
        "highlight_target_confirm",
        "highlight_hover",
        "highlight_selected",
    ]
    units = [f"{kind}_{side}" for kind in ("light", "mechanized", "special") for side in "ab"]
    expected = {*terrain, *highlights, *units, "bridge_square", "badge_damaged"}
    expected |= {f"{layer}_{mask}" for layer in ("road", "river") for mask in MASKS}
    assert names == expected


@pytest.mark.parametrize("layer", ["road", "river"])
def test_every_overlay_mask_exists_with_its_bit_value(manifest: dict[str, Any], layer: str) -> None:
    assert manifest["masks"]["bits"] == BITS
    assert manifest["masks"]["names"] == MASKS
    for value, mask in enumerate(MASKS, start=1):
        entry = manifest["images"][f"{layer}_{mask}"]
        assert (entry["mask"], entry["connections"]) == (value, mask)
        assert (ASSETS / entry["file"]).is_file()


def test_image_sizes_and_anchors_match_the_manifest(
    manifest: dict[str, Any], images: dict[str, Image.Image]
) -> None:
    for name, entry in manifest["images"].items():
        im = images[name]
        assert im.mode == "RGBA", name
        assert list(im.size) == entry["size"], name
        w, h = im.size
        if entry["group"] == "unit":
            assert (w, h) == (700, 700)
            assert entry["anchor"] == [350, 700]
            gx, gy = entry["ground"]
            assert 0 < gx < w and 0 < gy < h
            assert im.getpixel((round(gx), round(gy)))[3] > 0, f"{name} does not stand on its ground point"
        elif entry["group"] == "badge":
            assert entry["anchor"] == [w // 2, h // 2]
        else:
            assert (w, h) == TILE
            assert entry["anchor"] == [320, 198], "tiles are placed by their centre (rules §12)"


def test_the_manifest_carries_the_rules_12_geometry(manifest: dict[str, Any]) -> None:
    tile = manifest["tile"]
    assert (tile["image_w"], tile["image_h"], tile["face_h"], tile["wall"]) == (640, 396, 320, 76)
    assert (tile["tile_w"], tile["tile_h"], tile["row_overlap"], tile["step_y"]) == (128, 79.2, 7.5, 32.1)
    assert manifest["image_scale"] == 0.2
    offsets = manifest["draw_order"]["offsets"]
    assert (offsets["terrain"], offsets["river"], offsets["road"], offsets["bridge"]) == (0, 1, 2, 3)
    assert (offsets["move"], offsets["attack"], offsets["target"], offsets["hover"]) == (5, 6, 6, 7)
    types = manifest["units"]["types"]
    assert {t: types[t]["type_scale"] for t in types} == {
        "LIGHT_INFANTRY": 0.95,
        "MECHANIZED": 1.05,
        "SPECIAL": 1.0,
    }
    assert types["MECHANIZED"]["tweak"] == {"off_x": 5, "off_y": 14, "scale": 0.5}
    assert (
        types["LIGHT_INFANTRY"]["tweak"]
        == types["SPECIAL"]["tweak"]
        == {"off_x": 0, "off_y": 8, "scale": 0.5}
    )
    assert manifest["terrain"]["WATER"] == "terrain-06-water"


def test_overlays_and_highlights_stay_on_the_top_face(
    manifest: dict[str, Any], images: dict[str, Image.Image]
) -> None:
    outside = Image.new("L", TILE, 255)
    px = outside.load()
    assert px is not None
    for y in range(TILE[1]):
        for x in range(TILE[0]):
            if face_contains(x, y):
                px[x, y] = 0
    for name, entry in manifest["images"].items():
        if entry["group"] in {"road", "river", "connector", "highlight"}:
            alpha = images[name].getchannel("A")
            spill = Image.composite(alpha, Image.new("L", TILE, 0), outside)
            assert spill.getbbox() is None, f"{name} paints outside the top face"
            assert alpha.getbbox() is not None, f"{name} is empty"


# --- seams: a piece leaving through an edge meets the neighbour's piece entering through it -----------
# Across a cell's N edge lies its northern neighbour, 320 px right and 160 px up in image pixels;
# across its E edge the eastern neighbour, 320 right and 160 down (rules §12: N up-right, E down-right).
SEAMS = {
    "N": {"opposite": "S", "offset": (320, -160), "midpoint": (480, 80), "axis": (2, -1)},
    "E": {"opposite": "W", "offset": (320, 160), "midpoint": (480, 240), "axis": (2, 1)},
}
LINES = range(-80, 81)  # lines parallel to the road/river axis, this many pixels right of the midpoint
STEPS = range(-12, 13)  # sample points along each line, one axis step (2 px by 1 px) apart


def side_profile(
    im: Image.Image, edge: str, own_side: bool, scale: int = 1
) -> dict[int, set[tuple[int, ...]]]:
    """Pixels of ``im`` on its own side of the seam, per line parallel to the axis.

    ``own_side`` is True when ``im`` is the cell whose ``edge`` this is, False when it is the
    neighbour across that edge (shifted by the seam's offset).
    """
    seam = SEAMS[edge]
    (mx, my), (ax, ay), (ox, oy) = seam["midpoint"], seam["axis"], seam["offset"]
    px = im.load()
    assert px is not None
    out: dict[int, set[tuple[int, ...]]] = {}
    for m in LINES:
        values: set[tuple[int, ...]] = set()
        for t in STEPS:
            x, y = mx * scale + m * scale + ax * t, my * scale + ay * t
            if not own_side:
                x, y = x - ox * scale, y - oy * scale
            if face_contains(x, y, scale):
                value = px[x, y]
                assert isinstance(value, tuple)
                values.add(value if value[3] else (0, 0, 0, 0))
        out[m] = values
    return out


def check_seams(images: dict[str, Image.Image], layer: str, edge: str, scale: int) -> None:
    opposite = SEAMS[edge]["opposite"]
    leaving = {m: side_profile(images[f"{layer}_{m}"], edge, True, scale) for m in MASKS if edge in m}
    entering = {m: side_profile(images[f"{layer}_{m}"], edge, False, scale) for m in MASKS if opposite in m}
    crossed = 0
    for a, prof_a in leaving.items():
        for b, prof_b in entering.items():
            for m in LINES:
                line = prof_a[m] | prof_b[m]
                assert len(line) == 1, (
                    f"{layer}_{a} and {layer}_{b} differ across the {edge} edge, line {m}: {line}"
                )
                crossed += next(iter(line))[3] > 0
    assert crossed > 0, "nothing crosses the edge"


@pytest.mark.parametrize("layer", ["road", "river"])
@pytest.mark.parametrize("edge", ["N", "E"])
def test_connection_edges_of_adjacent_pieces_line_up(
    images: dict[str, Image.Image], layer: str, edge: str
) -> None:
    check_seams(images, layer, edge, scale=1)


@pytest.mark.parametrize("layer", ["road", "river"])
def test_connection_edges_line_up_at_scale_2(generated_2x: Path, layer: str) -> None:
    images = {}
    for mask in MASKS:
        with Image.open(generated_2x / f"{layer}_{mask}@2x.png") as im:
            images[f"{layer}_{mask}"] = im.copy()
    for edge in SEAMS:
        check_seams(images, layer, edge, scale=2)


@pytest.mark.parametrize("layer", ["road", "river"])
@pytest.mark.parametrize("edge", ["N", "E", "S", "W"])
def test_pieces_leave_unconnected_edges_bare(images: dict[str, Image.Image], layer: str, edge: str) -> None:
    base = edge if edge in SEAMS else next(e for e, s in SEAMS.items() if s["opposite"] == edge)
    for mask in MASKS:
        if edge not in mask:
            profile = side_profile(images[f"{layer}_{mask}"], base, own_side=edge in SEAMS)
            assert all(v == {(0, 0, 0, 0)} for v in profile.values() if v), (
                f"{layer}_{mask} reaches its {edge} edge"
            )


# --- command line ---------------------------------------------------------------------------------
def test_scale_2_writes_at2x_files_of_double_size(generated_2x: Path, manifest: dict[str, Any]) -> None:
    big = load_manifest(generated_2x, "manifest@2x.json")
    assert {p.name for p in generated_2x.iterdir()} == {e["file"] for e in big["images"].values()} | {
        "manifest@2x.json"
    }
    assert big["image_scale"] == 0.1
    for name, entry in manifest["images"].items():
        entry2 = big["images"][name]
        assert entry2["file"] == f"{name}@2x.png"
        with Image.open(generated_2x / entry2["file"]) as im:
            assert list(im.size) == [2 * v for v in entry["size"]] == entry2["size"]
        assert entry2["anchor"] == [2 * v for v in entry["anchor"]]


def test_sheet_writes_a_png(generated: tuple[Path, Path, str]) -> None:
    _, sheet, _ = generated
    with Image.open(sheet) as im:
        assert im.format == "PNG"
        assert im.width > 1000 and im.height > 1000


def test_an_unwritable_out_directory_fails_clearly(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = run("--out", blocker / "tiles")
    assert result.returncode != 0
    assert "cannot write" in result.stderr and str(blocker) in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["0", "-1", "x", "5"])
def test_a_bad_scale_fails_clearly(tmp_path: Path, value: str) -> None:
    result = run("--out", tmp_path / "tiles", f"--scale={value}")
    assert result.returncode != 0
    assert "--scale" in result.stderr and "1, 2, 3, 4" in result.stderr
    assert not (tmp_path / "tiles").exists()
