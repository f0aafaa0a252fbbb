"""The board: cell geometry, the terrain map, its derived lookup tables and the deployment zones (rules §2, §3.4)."""
