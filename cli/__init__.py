"""The `taktik` command line: argument parsing and output over the engine, the lab and the server."""
