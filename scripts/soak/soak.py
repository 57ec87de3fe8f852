"""`make soak`: comet-server under mixed load for a long while, checked for steadiness.

One comet-server (release, --demo: it serves its own gallery as the origin) with a Redis store,
and a second origin that resets every connection. WORKERS threads send, for DURATION seconds:
  cold    35%  a fill of a random size (48..640) of a random gallery image, random quality
  warm    40%  256×256 fills of the gallery, Zipf-distributed
  bad     15%  malformed options (400), a missing source (404), an unwritten extension (.tiff: 422)
  reset   10%  a source on the resetting origin (502)
and every 90 s a burst of 48 more threads for 5 s (overload: 503s are expected). Redis is
killed and restarted at one third and two thirds of the run.

Every 5 s the server's resident memory (VmRSS) is sampled. The run passes when, after the
warm-up (until the first Redis restart and two overload bursts are 30 s past: 230 s of 600),
every 30-second mean of RSS stays within +10% of the warm-up's last 30-second mean (the server
trims its heap every 10 s, so single samples swing by about 10 MiB), and
every answer is one its class may get (200 or a shed 503 for cold and warm; the bad ones' 4xx;
502 or 504 for the resetting origin; 503 anywhere under overload). The result cache is capped at
32 MiB so that it fills during the warm-up: a steady server's memory then stops growing.
"""
import argparse
import base64
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class ResettingOrigin(threading.Thread):
    """Accepts connections and resets each one (SO_LINGER 0) after reading the request."""

    def __init__(self):
        super().__init__(daemon=True)
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(128)
        self.port = self.socket.getsockname()[1]

    def run(self):
        while True:
            connection, _ = self.socket.accept()
            try:
                connection.settimeout(2)
                connection.recv(4096)
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            except OSError:
                pass
            connection.close()


class Redis:
    def __init__(self, work: Path):
        self.port = free_port()
        self.work = work
        self.process = None

    def start(self):
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no",
                                         "--dir", str(self.work)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, 10)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def path(options: str, source: str, extension: str = "jpg") -> str:
    encoded = base64.urlsafe_b64encode(source.encode()).rstrip(b"=").decode()
    return f"/unsigned/{options}/{encoded}.{extension}"


class Load:
    """The request mix, with what each class may be answered."""

    EXPECTED = {
        "cold": {200, 503}, "warm": {200, 503}, "bad": {400, 404, 422, 503},
        "reset": {502, 503, 504}, "burst": {200, 503},
    }

    def __init__(self, port: int, names: list[str], reset_port: int, seed: int):
        self.port = port
        self.names = names
        self.reset_port = reset_port
        self.random = random.Random(seed)
        self.weights = [1 / (rank + 1) for rank in range(len(names))]

    def next(self) -> tuple[str, str]:
        origin = f"http://127.0.0.1:{self.port}/gallery/"
        roll = self.random.random()
        if roll < 0.35:
            size = (self.random.randrange(48, 641), self.random.randrange(48, 641))
            name = self.random.choice(self.names)
            return "cold", path(f"rs:fill:{size[0]}:{size[1]}/q:{self.random.randrange(50, 96)}", origin + name)
        if roll < 0.75:
            name = self.random.choices(self.names, self.weights)[0]
            return "warm", path("rs:fill:256:256", origin + name)
        if roll < 0.90:
            kind = self.random.randrange(3)
            if kind == 0:
                return "bad", path("rs:fill:abc:12", origin + self.names[0])
            if kind == 1:
                return "bad", path("rs:fit:64:64", origin + "missing.jpg")
            return "bad", path("rs:fit:64:64", origin + self.names[0], extension="tiff")
        return "reset", path("rs:fit:64:64", f"http://127.0.0.1:{self.reset_port}/photo-{self.random.randrange(10**6)}.jpg")


def worker(port: int, load: Load, stop: threading.Event, counts: Counter, unexpected: Counter, lock: threading.Lock,
           kind_override: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        kind, target = load.next()
        if kind_override and kind in ("cold", "warm"):
            kind = kind_override
        try:
            connection.request("GET", target)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            status = 0
        with lock:
            counts[(kind, status)] += 1
            if status not in Load.EXPECTED[kind]:
                unexpected[(kind, status)] += 1
    connection.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--comet-server", required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--duration", type=int, default=600)
    parser.add_argument("--workers", type=int, default=12)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)

    redis = Redis(args.work)
    redis.start()
    resetting = ResettingOrigin()
    resetting.start()
    port = free_port()
    log = open(args.work / "comet-server.log", "w")
    server = subprocess.Popen(
        args.comet_server.split() + ["--demo", "--port", str(port), "--insecure-unsigned", "--redis", f"127.0.0.1:{redis.port}",
                                     "--result-cache-bytes", str(32 << 20), "--max-queued", "16", "--log-level", "warning"],
        stdout=log, stderr=log, start_new_session=True)
    try:
        wait_port(port, 60)
        page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        page.request("GET", "/")
        names = sorted(set(re.findall(r"<h2>([A-Za-z0-9_.-]+)</h2>", page.getresponse().read().decode())))
        page.close()
        if not names:
            raise RuntimeError("the demo page names no gallery image")
        print(f"soak: comet-server on {port}, Redis on {redis.port}, gallery {names}, {args.duration} s, {args.workers} workers")

        stop, lock = threading.Event(), threading.Lock()
        counts, unexpected = Counter(), Counter()
        threads = [threading.Thread(target=worker, args=(port, Load(port, names, resetting.port, seed), stop, counts, unexpected, lock))
                   for seed in range(args.workers)]
        for thread in threads:
            thread.start()
        samples: list[tuple[float, float]] = []
        events: list[tuple[float, str]] = []
        started = time.monotonic()
        restarts = [args.duration / 3, 2 * args.duration / 3]
        next_burst = 90.0
        while (elapsed := time.monotonic() - started) < args.duration:
            samples.append((elapsed, rss_mib(server.pid)))
            if restarts and elapsed >= restarts[0]:
                restarts.pop(0)
                redis.kill()
                time.sleep(2)
                redis.start()
                events.append((elapsed, "Redis restarted"))
            if elapsed >= next_burst:
                next_burst += 90
                burst_stop = threading.Event()
                burst = [threading.Thread(target=worker, args=(port, Load(port, names, resetting.port, 1000 + i), burst_stop, counts,
                                                                unexpected, lock, "burst")) for i in range(48)]
                for thread in burst:
                    thread.start()
                time.sleep(5)
                burst_stop.set()
                for thread in burst:
                    thread.join()
                events.append((elapsed, "overload burst"))
                continue
            time.sleep(5)
        samples.append((time.monotonic() - started, rss_mib(server.pid)))
        stop.set()
        for thread in threads:
            thread.join()
        alive = server.poll() is None
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        redis.kill()

    # The warm-up lasts until one of each disturbance has happened (overload bursts at 90 and
    # 180 s, the first Redis restart at a third of the run) and 30 s more: each brings its own
    # first-time allocations. The server hands its free heap memory back every 10 s, so RSS is
    # a sawtooth of about 10 MiB: RSS is compared as 30-second means (the last window of the
    # warm-up against every window after it), and the highest single sample is reported too.
    warm_up = args.duration / 3 + WINDOW
    windows = window_means(samples)
    baseline = [mean for end, mean in windows if end <= warm_up][-1]
    worst = max(mean for end, mean in windows if end > warm_up)
    peak = max(rss for t, rss in samples if t > warm_up)
    flat = worst <= baseline * 1.10
    total = sum(counts.values())
    csv = args.work / "soak-rss.csv"
    csv.write_text("".join(f"{t:.1f} {rss:.1f}\n" for t, rss in samples))
    plot(csv, events, baseline, warm_up, args.out, args.duration)
    print(f"soak: {total} requests in {args.duration} s; by class and status: "
          + ", ".join(f"{kind} {status}: {n}" for (kind, status), n in sorted(counts.items())))
    print(f"soak: RSS over the last {WINDOW:.0f} s of the warm-up (to {warm_up:.0f} s) {baseline:.1f} MiB; highest "
          f"{WINDOW:.0f}-second mean after it {worst:.1f} MiB ({(worst / baseline - 1) * 100:+.1f}%); highest sample "
          f"{peak:.1f} MiB ({(peak / baseline - 1) * 100:+.1f}%); at the end {samples[-1][1]:.1f} MiB; picture: {args.out}")
    print(f"soak: unexpected answers: {dict(unexpected) or 'none'}; server alive to the end: {alive}")
    ok = flat and not unexpected and alive
    print("soak: PASS" if ok else "soak: FAIL")
    return 0 if ok else 1


WINDOW = 30.0


def window_means(samples: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The mean RSS of each consecutive WINDOW-second stretch, as (end time, mean)."""
    means = []
    start = 0.0
    while start < samples[-1][0]:
        inside = [rss for t, rss in samples if start < t <= start + WINDOW]
        if inside:
            means.append((start + WINDOW, sum(inside) / len(inside)))
        start += WINDOW
    return means


def plot(csv: Path, events: list[tuple[float, str]], baseline: float, warm_up: float, out: Path, duration: int) -> None:
    script = [
        "set terminal png size 900,420 font ',10'",
        f"set output '{out}'",
        "set title 'comet-server resident memory under the soak'",
        "set xlabel 'seconds'", "set ylabel 'RSS (MiB)'", "set grid", "set key right bottom",
        f"set xrange [0:{duration}]", "set yrange [0:*]",
        f"set arrow from {warm_up},graph 0 to {warm_up},graph 1 nohead dashtype 2 lc rgb 'gray'",
        f"set label 'end of warm-up' at {warm_up},graph 0.05 offset 0.5,0",
    ]
    for elapsed, label in events:
        if label.startswith("Redis"):
            script.append(f"set arrow from {elapsed},graph 0 to {elapsed},graph 1 nohead lc rgb 'red'")
            script.append(f"set label 'Redis restarted' at {elapsed},graph 0.85 offset 0.5,0 tc rgb 'red'")
    script.append(f"plot '{csv}' using 1:2 with lines lw 2 title 'RSS', {baseline * 1.10:.1f} with lines dashtype 3 "
                  "lc rgb 'orange' title '+10% of the warm-up value'")
    subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True)


if __name__ == "__main__":
    sys.exit(main())
