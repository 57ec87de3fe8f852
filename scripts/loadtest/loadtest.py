"""Comet's `comet-server` against thumbor 7.8 under wrk, on loopback, same origin, same images.

Scenarios (each on freshly started servers with empty caches):
  cold: every request a URL neither server has seen: one of the 200 images at a size drawn
        without repetition (100..611 × 100..611, fill/crop, JPEG q80).
  warm: 256×256 fill, JPEG q80, images drawn from a Zipf(1.0) mix over the 200 images, after a
        priming pass that requested each image once.
  smart: a typical production mix, every URL new as in cold: fill, smart gravity, a light sharpen,
        quality 80, the format chosen by the client's `Accept: image/webp,*/*` (so WebP). thumbor's
        smart crop is its OpenCV face and feature detectors (opencv-python-headless from PyPI).
  focal: the same with a focal point at (0.4, 0.4) of the source instead of smart gravity
        (thumbor's `focal` filter, comet-server's `g:fp`): the placement without any detection.
Per run: requests/s, p50, p99 (wrk), CPU time per request (utime+stime of the server's
processes over the run, from /proc/<pid>/stat, divided by requests), peak RSS (VmHWM, summed
over the server's processes). After comet-server's cold run, the C loop of cold_reference.c
does the same work in memory on the requests it served first (decode at the covering DCT scale,
area resample, JPEG q80 encode; its CPU per image is the floor comet-server's cold CPU per request
is held to). Writes a Markdown table to stdout and to --out.
"""
import argparse
import base64
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import images

HERE = Path(__file__).resolve().parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ok(url: str, timeout: float, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer 200 within {timeout} s")


def descendants(pid: int) -> list[int]:
    """`pid` and every process below it (thumbor forks one child per worker)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / CLOCK_TICKS


def peak_rss_mib(pids: list[int]) -> float:
    total_kib = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total_kib += int(line.split()[1])
        except OSError:
            continue
    return total_kib / 1024


class Origin:
    """nginx on loopback serving the generated images from `root`."""

    def __init__(self, root: Path, work: Path):
        self.port = free_port()
        directory = work / "nginx"
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        config = directory / "nginx.conf"
        config.write_text(f"""
daemon off;
master_process off;
worker_processes 1;
error_log {directory}/error.log warn;
pid {directory}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path {directory};
    proxy_temp_path {directory};
    fastcgi_temp_path {directory};
    uwsgi_temp_path {directory};
    scgi_temp_path {directory};
    types {{ image/jpeg jpg; }}
    server {{ listen 127.0.0.1:{self.port}; root {root}; }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-c", str(config), "-p", str(directory)])

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name}"


class Server:
    """One service under test: how to start it and how its URLs look."""

    name = ""

    def __init__(self, work: Path, origin: Origin):
        self.work = work
        self.origin = origin
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self, scenario: str) -> None:
        raise NotImplementedError

    def path(self, image: str, width: int, height: int, scenario: str = "cold") -> str:
        raise NotImplementedError

    def pids(self) -> list[int]:
        return descendants(self.process.pid)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)


class Comet(Server):
    name = "comet-server"

    def __init__(self, work: Path, origin: Origin, command: list[str]):
        super().__init__(work, origin)
        self.command = command

    def start(self, scenario: str) -> None:
        arguments = self.command + [
            "--host", "127.0.0.1", "--port", str(self.port), "--insecure-unsigned",
            "--allow-private-networks", "--log-level", "warning",
        ]
        log = open(self.work / "comet-server.log", "ab")
        self.process = subprocess.Popen(arguments, stdout=log, stderr=log, start_new_session=True)
        wait_ok(f"http://127.0.0.1:{self.port}/health", 30, self.process)

    def path(self, image: str, width: int, height: int, scenario: str = "cold") -> str:
        source = base64.urlsafe_b64encode(self.origin.url(image).encode()).decode().rstrip("=")
        if scenario in PRODUCTION_SCENARIOS:
            # No format: the client's Accept picks WebP, as a browser's does.
            gravity = "sm" if scenario == "smart" else "fp:0.4:0.4"
            return f"/unsigned/rs:fill:{width}:{height}/g:{gravity}/sh:0.5/q:80/{source}"
        return f"/unsigned/rs:fill:{width}:{height}/q:80/f:jpeg/{source}"


class Thumbor(Server):
    name = "thumbor 7.8"

    def __init__(self, work: Path, origin: Origin, executable: str, processes: int):
        super().__init__(work, origin)
        self.executable = executable
        self.processes = processes

    def start(self, scenario: str) -> None:
        storage = self.work / "thumbor-storage"
        results = self.work / "thumbor-results"
        for directory in (storage, results):
            shutil.rmtree(directory, ignore_errors=True)
        config = self.work / "thumbor.conf"
        # Thumbor's usual production setup: originals cached on disk, results cached on disk
        # (so warm requests are served without processing), PIL engine. The production mixes turn
        # on its OpenCV detectors (what `/smart/` uses) and WebP by Accept.
        production = scenario in PRODUCTION_SCENARIOS
        detectors = (
            "['thumbor.detectors.face_detector', 'thumbor.detectors.feature_detector']" if production else "[]"
        )
        config.write_text(f"""
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '{storage}'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '{results}'
RESULT_STORAGE_STORES_UNSAFE = True
ENGINE = 'thumbor.engines.pil'
DETECTORS = {detectors}
QUALITY = 80
AUTO_WEBP = {production}
HTTP_LOADER_MAX_CLIENTS = 64
""")
        log = open(self.work / "thumbor.log", "ab")
        self.process = subprocess.Popen(
            [self.executable, "--ip", "127.0.0.1", "--port", str(self.port), "--conf", str(config),
             "--processes", str(self.processes), "--log-level", "warning"],
            stdout=log, stderr=log, start_new_session=True,
        )
        wait_ok(f"http://127.0.0.1:{self.port}/healthcheck", 30, self.process)
        time.sleep(1)  # the forked workers start listening after the parent answers

    def path(self, image: str, width: int, height: int, scenario: str = "cold") -> str:
        source = self.origin.url(image)[len('http://'):]
        if scenario == "smart":
            return f"/unsafe/{width}x{height}/smart/filters:sharpen(1,0.5,false):quality(80)/{source}"
        if scenario == "focal":
            # The source is 1024×768: a 2-pixel focal region at 40% of each side.
            return (f"/unsafe/{width}x{height}/filters:focal(409x307:411x309):sharpen(1,0.5,false):quality(80)/"
                    f"{source}")
        return f"/unsafe/{width}x{height}/filters:quality(80)/{source}"


PRODUCTION_SCENARIOS = ("smart", "focal")
BROWSER_ACCEPT = "image/webp,*/*"


def cold_requests(names: list[str], count: int, seed: int) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    seen: set[tuple[str, int, int]] = set()
    requests = []
    while len(requests) < count:
        request = (rng.choice(names), rng.randrange(100, 612), rng.randrange(100, 612))
        if request not in seen:
            seen.add(request)
            requests.append(request)
    return requests


def warm_requests(names: list[str], count: int, seed: int) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    ranked = names[:]
    rng.shuffle(ranked)
    weights = [1 / (rank + 1) for rank in range(len(ranked))]
    return [(name, 256, 256) for name in rng.choices(ranked, weights=weights, k=count)]


def run(server: Server, scenario: str, requests: list[tuple[str, int, int]], names: list[str], args) -> dict:
    paths_file = server.work / f"paths-{scenario}-{server.name.split()[0]}.txt"
    paths_file.write_text("\n".join(server.path(*request, scenario) for request in requests) + "\n")
    production = scenario in PRODUCTION_SCENARIOS
    headers = {"Accept": BROWSER_ACCEPT} if production else {}
    server.start(scenario)
    try:
        # Every response must be an image (WebP for the production mixes) before anything is measured.
        check = urllib.request.Request(f"http://127.0.0.1:{server.port}{server.path(names[0], 64, 48, scenario)}",
                                       headers=headers)
        with urllib.request.urlopen(check, timeout=30) as response:
            expected = "image/webp" if production else "image/"
            if not response.headers.get("Content-Type", "").startswith(expected):
                raise RuntimeError(f"{server.name}: {response.headers.get('Content-Type')} for a thumbnail")
        if scenario == "warm":
            for name in names:
                with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{server.path(name, 256, 256)}", timeout=30) as response:
                    response.read()
        pids = server.pids()
        cpu_before = cpu_seconds(pids)
        environment = dict(os.environ, LOADTEST_PATHS=str(paths_file), LOADTEST_THREADS=str(args.threads))
        accept = ["-H", f"Accept: {BROWSER_ACCEPT}"] if production else []
        output = subprocess.run(
            ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", f"{args.duration}s",
             "--timeout", "10s", *accept, "-s", str(HERE / "paths.lua"), f"http://127.0.0.1:{server.port}"],
            env=environment, capture_output=True, text=True, timeout=args.duration + 60, check=True,
        ).stdout
        pids = server.pids()
        cpu = cpu_seconds(pids) - cpu_before
        rss = peak_rss_mib(pids)
    finally:
        server.stop()
    line = next(line for line in output.splitlines() if line.startswith("LOADTEST_JSON "))
    figures = json.loads(line[len("LOADTEST_JSON "):])
    seconds = figures["duration_us"] / 1e6
    return {
        "server": server.name, "scenario": scenario, "requests": figures["requests"],
        "rps": figures["requests"] / seconds, "p50_ms": figures["p50_us"] / 1000, "p99_ms": figures["p99_us"] / 1000,
        "cpu_ms_per_request": 1000 * cpu / max(1, figures["requests"]), "peak_rss_mib": rss,
        "errors": figures["bad_status"] + figures["socket_errors"], "wrapped": bool(figures["wrapped"]),
    }


def table(results: list[dict]) -> str:
    lines = [
        "| scenario | server | requests/s | p50 (ms) | p99 (ms) | CPU per request (ms) | peak RSS (MiB) | errors |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        note = " (list wrapped: not all cold)" if r["wrapped"] and r["scenario"] != "warm" else ""
        lines.append(
            f"| {r['scenario']}{note} | {r['server']} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
            f"{r['cpu_ms_per_request']:.2f} | {r['peak_rss_mib']:.0f} | {r['errors']} |"
        )
    for r in results:
        if "reference_cpu_ms" in r:
            lines.append("")
            lines.append(
                f"cold: comet-server {r['cpu_ms_per_request']:.2f} ms of CPU per request against "
                f"{r['reference_cpu_ms']:.2f} ms per image for the C loop doing the same work in memory (decode at the "
                f"covering DCT scale, area resample, JPEG q80 encode): "
                f"{r['cpu_ms_per_request'] / r['reference_cpu_ms']:.2f}× (target ≤ 1.00×)."
            )
    for scenario in ("cold", "warm", *PRODUCTION_SCENARIOS):
        pair = {r["server"]: r for r in results if r["scenario"] == scenario}
        if len(pair) == 2:
            comet = pair["comet-server"]
            thumbor = next(r for name, r in pair.items() if name != "comet-server")
            lines.append("")
            lines.append(
                f"{scenario}: comet-server {comet['rps'] / thumbor['rps']:.1f}× thumbor's requests/s, "
                f"p99 {comet['p99_ms']:.1f} ms vs {thumbor['p99_ms']:.1f} ms, "
                f"CPU per request {thumbor['cpu_ms_per_request'] / max(comet['cpu_ms_per_request'], 1e-9):.1f}× less."
            )
    return "\n".join(lines)


def cold_reference(work: Path, requests: list[tuple[str, int, int]], count: int) -> float:
    """CPU milliseconds per image of the C loop that does a cold request's work in memory
    (cold_reference.c: decode at the DCT scale covering 1.5 × the fill, Lanczos3 resample, JPEG q80
    encode, as comet-server's default resize does), over
    the first `count` cold requests."""
    root = HERE.parent.parent
    binary = work / "cold_reference"
    subprocess.run(["gcc", "-O2", "-I", str(root / "Benchmarks/Sources/CReference/include"), str(HERE / "cold_reference.c"),
                    str(root / "Benchmarks/Sources/CReference/reference.c"),
                    str(root / "Benchmarks/Sources/CReference/reference_lanczos.c"), "-ljpeg", "-lpng", "-lm", "-o", str(binary)],
                   check=True)
    lines = "".join(f"{name} {width} {height}\n" for name, width, height in requests[:count])
    output = subprocess.run([str(binary), str(work / "images"), "80"], input=lines, capture_output=True, text=True,
                            check=True).stdout
    return float(output.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comet-server", required=True, help="the comet-server command (split on spaces)")
    parser.add_argument("--thumbor", required=True, help="the thumbor executable")
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--duration", type=int, default=20, help="seconds per run")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--thumbor-processes", type=int, default=2, help="thumbor worker processes (one per core)")
    parser.add_argument("--scenarios", default="cold,warm")
    parser.add_argument("--servers", default="comet,thumbor")
    args = parser.parse_args()

    args.work.mkdir(parents=True, exist_ok=True)
    names = images.generate(args.work / "images")
    origin = Origin(args.work / "images", args.work)
    results = []
    try:
        wait_ok(origin.url(names[0]), 10, origin.process)
        servers = {
            "comet": lambda: Comet(args.work, origin, args.comet_server.split()),
            "thumbor": lambda: Thumbor(args.work, origin, args.thumbor, args.thumbor_processes),
        }
        for scenario in args.scenarios.split(","):
            # Enough distinct cold URLs for 3000 requests/s over the run.
            if scenario == "warm":
                requests = warm_requests(names, 400_000, 2)
            else:
                requests = cold_requests(names, 3000 * args.duration, 1 if scenario == "cold" else 3)
            for key in args.servers.split(","):
                result = run(servers[key](), scenario, requests, names, args)
                print(json.dumps(result), file=sys.stderr)
                results.append(result)
                if scenario == "cold" and key == "comet":
                    # The same work in a plain C loop on the requests the run served first.
                    served = min(result["requests"], len(requests))
                    reference = cold_reference(args.work, requests, max(200, min(served, 2000)))
                    result["reference_cpu_ms"] = reference
    finally:
        origin.process.kill()
        origin.process.wait(timeout=15)
    header = (
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s on loopback; {os.cpu_count()} cores; "
        f"thumbor with {args.thumbor_processes} processes; origin: nginx, 200 JPEGs 1024×768.\n\n"
    )
    text = header + table(results) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
