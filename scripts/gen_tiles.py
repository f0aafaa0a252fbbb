#!/usr/bin/env python3
"""Draw every board image of Taktik with Pillow and write them, byte-stable, with a manifest.

    python scripts/gen_tiles.py                    # assets/tiles/*.png, atlas.webp + manifest.json
    python scripts/gen_tiles.py --scale 2          # the @2x set (manifest@2x.json)
    python scripts/gen_tiles.py --out /tmp/tiles   # somewhere else
    python scripts/gen_tiles.py --sheet sheet.png  # also a contact sheet for review

The drawing lives in the sibling package ``tiles`` (pure ``draw_*`` functions); this module
only parses arguments, encodes PNGs (and the atlas as a WebP) with fixed settings and writes files
in sorted order. Identical inputs give identical bytes: no timestamps, no text chunks, RGBA, fixed
encoder settings.
See docs/tiles.md.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiles import atlas, catalog, sheet

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "assets" / "tiles"
SCALES = (1, 2, 3, 4)
PNG_OPTIONS: Mapping[str, Any] = {"format": "PNG", "optimize": False, "compress_level": 6}
"""Fixed encoder settings: with no ``pnginfo``/``dpi`` Pillow writes no metadata chunks."""
WEBP_OPTIONS: Mapping[str, Any] = {"format": "WEBP", "quality": 80, "method": 4, "alpha_quality": 100}
"""The atlas the browser loads: lossy colour (about a quarter of the PNG's bytes; the board shows
tiles at a fifth of their size or less, where no artefact survives) and exact alpha, which
picking and the tall-tile test read. No ``exif``/``icc_profile``: no metadata chunks."""


def png_bytes(image: Image.Image) -> bytes:
    """Encode ``image`` as an RGBA PNG with the fixed settings."""
    buf = io.BytesIO()
    image.convert("RGBA").save(buf, **PNG_OPTIONS)
    return buf.getvalue()


def webp_bytes(image: Image.Image, quality: int = WEBP_OPTIONS["quality"]) -> bytes:
    """Encode ``image`` as a WebP with the fixed settings (lossy colour, lossless alpha)."""
    buf = io.BytesIO()
    image.convert("RGBA").save(buf, **{**WEBP_OPTIONS, "quality": quality})
    return buf.getvalue()


def manifest_bytes(manifest: Mapping[str, Any]) -> bytes:
    """The manifest as sorted, indented JSON with a trailing newline."""
    return (json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=True) + "\n").encode("ascii")


def build(scale: int) -> tuple[dict[str, Image.Image], dict[str, bytes]]:
    """Draw the set at ``scale``: the images by name, and every output file's bytes by file name.

    The 1x set also gets ``atlas.webp``, every image packed into one, and ``atlas-half.webp``,
    the same at half the size (the browser loads that first, and the whole one only to zoom in
    deep); the manifest says where each image is in the atlas (``atlas`` and each ``rect``).
    """
    images = catalog.render(scale)
    files = {catalog.file_name(name, scale): png_bytes(im) for name, im in images.items()}
    manifest = catalog.manifest(images, scale)
    if scale == 1:
        sheet_image, rects = atlas.pack(images)
        name = f"{atlas.ATLAS_NAME}.webp"
        files[name] = webp_bytes(sheet_image)
        half_image = atlas.halve(sheet_image)
        half = f"{atlas.ATLAS_NAME}-half.webp"
        files[half] = webp_bytes(half_image, quality=85)
        manifest["atlas"] = {"file": name, "size": list(sheet_image.size),
                             "half": {"file": half, "size": list(half_image.size)}}
        for image, rect in rects.items():
            manifest["images"][image]["rect"] = rect
    files[catalog.manifest_name(scale)] = manifest_bytes(manifest)
    return images, files


def _scale(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; use one of 1, 2, 3, 4") from None
    if value not in SCALES:
        raise argparse.ArgumentTypeError(f"{value} is out of range; use one of 1, 2, 3, 4")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gen_tiles.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="directory to write into (default: assets/tiles next to this script)",
    )
    parser.add_argument(
        "--scale", type=_scale, default=1, help="resolution multiplier 1-4; 2 writes the @2x set (default: 1)"
    )
    parser.add_argument(
        "--sheet",
        type=Path,
        metavar="FILE",
        help="also write a contact sheet PNG: a sample board plus every image, labelled",
    )
    return parser.parse_args(argv)


def _prepare(directory: Path) -> None:
    """Create ``directory`` and check it can be written, before any drawing starts."""
    directory.mkdir(parents=True, exist_ok=True)
    probe = directory / ".gen_tiles-write-check"
    probe.write_bytes(b"")
    probe.unlink()


def main(argv: Sequence[str] | None = None) -> int:
    """Write the tile set (and optionally a contact sheet); print a one-line summary."""
    args = parse_args(argv)
    started = time.perf_counter()
    out: Path = args.out
    targets = [out] + ([args.sheet.parent if str(args.sheet.parent) else Path(".")] if args.sheet else [])
    for directory in targets:
        try:
            _prepare(directory)
        except OSError as exc:
            print(f"gen_tiles.py: error: cannot write to {directory}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    images, files = build(args.scale)
    total = 0
    try:
        for name in sorted(files):
            (out / name).write_bytes(files[name])
            total += len(files[name])
        if args.sheet:
            data = png_bytes(sheet.draw_sheet(images, scale=args.scale))
            args.sheet.write_bytes(data)
    except OSError as exc:
        print(f"gen_tiles.py: error: cannot write: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    extra = f"; sheet {args.sheet}" if args.sheet else ""
    print(f"gen_tiles.py: wrote {len(files)} files ({total} bytes) to {out} in {elapsed:.2f} s{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
