"""`taktik serve --workers N`: N server processes sharing one port, and the parent that minds them.

Each worker is a whole `taktik serve` on the same PostgreSQL and Redis, listening on a
socket of its own bound with ``SO_REUSEPORT``, so the kernel spreads new connections over
them; no process needs to know which holds which match (server/replication.py). The parent
only starts them, restarts one that dies, and passes SIGTERM/SIGINT on.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

__all__ = ["listening_socket", "run_workers"]

RESTART_PAUSE = 1.0  # seconds before a worker that died is started again


def listening_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` that other processes may bind too (``SO_REUSEPORT``)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def worker_command(args: argparse.Namespace, port: int) -> list[str]:
    """The command line of one worker: the same options, one process, the shared port."""
    command = [sys.executable, "-m", "cli", "serve", "--host", args.host, "--port", str(port), "--bot", args.bot,
               "--bot-think", str(args.bot_think), "--log-level", args.log_level, "--database", args.database,
               "--bus", args.bus, "--pool-size", str(args.pool_size), "--reuse-port"]
    if args.data is not None:
        command += ["--data", str(args.data)]
    if args.limits is not None:
        command += ["--limits", str(args.limits)]
    for origin in args.allow_origin:
        command += ["--allow-origin", origin]
    if args.abandon_after is not None:
        command += ["--abandon-after", str(args.abandon_after)]
    if args.compress:
        command.append("--compress")
    if args.rules is not None:
        command += ["--rules", str(args.rules)]
    return command


def run_workers(args: argparse.Namespace) -> int:
    """Start ``args.workers`` workers and mind them until SIGTERM or SIGINT; the worst exit code."""
    port = args.port
    if port == 0:  # every worker must listen on the same port: pick it here
        with socket.socket() as probe:
            probe.bind((args.host, 0))
            port = probe.getsockname()[1]
    command = worker_command(args, port)
    stopping = False

    def stop(sig: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    workers = [subprocess.Popen(command) for _ in range(args.workers)]
    print(f"Taktik workers: {args.workers} processes on port {port} (pids {' '.join(str(w.pid) for w in workers)})",
          flush=True)
    while not stopping:
        time.sleep(0.2)
        for i, worker in enumerate(workers):
            if worker.poll() is not None and not stopping:
                print(f"Taktik worker {worker.pid} exited with {worker.returncode}; starting another", flush=True)
                time.sleep(RESTART_PAUSE)
                workers[i] = subprocess.Popen(command)
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
    codes = [worker.wait(30) for worker in workers]
    return max(codes, default=0)
