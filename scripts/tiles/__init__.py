"""Drawing code behind ``scripts/gen_tiles.py``: pure ``draw_*`` functions returning Pillow images.

Modules, leaf first: ``geometry`` (sizes, projection, masks, the supersampled canvas),
``palette`` (every colour), then ``terrain``, ``overlays``, ``highlights``, ``units``,
``catalog`` (the list of images and the manifest) and ``sheet`` (the review contact sheet).
"""
