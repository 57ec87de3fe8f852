"""`make imgproxy-clients`: URLs built by imgproxy's URL-builder libraries from PyPI, used as their
READMEs show, against a release build of comet-server.

Two modes:

- `clients.py urls LIBRARY --base URL --origin URL --key HEX --salt HEX` builds one library's URLs
  and prints them as JSON, with what imgproxy answers for each (status, size, format). It runs in
  the interpreter that has that library: `imgproxykit` 0.4.0 is Python 3.12 code (PEP 695 `type`
  statements and generics), so it has a venv of its own on a Python >= 3.12.
- `clients.py check --server BINARY --builder LIBRARY=PYTHON ...` makes the source images with
  Pillow, serves them from a loopback origin, starts comet-server on a free loopback port with a
  random hex key and salt, has each library build its URLs, GETs each one and checks the status,
  the Content-Type and the decoded size and format against imgproxy's. Prints a Markdown table;
  exits 1 on any failure. It stops the server and the origin on every way out, and stops by itself
  (`--deadline` seconds in all, a timeout on every request).

What imgproxy answers is computed here from its documented rules and its source (processing's
calcScale and calcSizes, the crop to the result size, padding, rotation; a format from the
extension or `format` option, else the source's own), for the cases below, whose sizes divide
exactly so that no rounding rule is in question.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import math
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version as installed_version
from pathlib import Path

# The sources the origin serves: name -> (width, height, format).
SOURCES = {
    "photo.jpg": (640, 480, "jpeg"),  # opaque JPEG, landscape
    "portrait.png": (480, 640, "png"),  # PNG with alpha, portrait
    "flat.png": (640, 480, "png"),  # opaque PNG, landscape
}
CONTENT_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "avif": "image/avif", "gif": "image/gif"}
FORMAT_NAMES = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "webp": "webp", "avif": "avif", "gif": "gif"}
REQUEST_TIMEOUT = 30  # seconds, per request


# ---------------------------------------------------------------------------------------------
# What imgproxy answers


def _round(value: float) -> int:
    """Go's math.Round (half away from zero), as imath.Scale uses it."""
    return int(math.floor(value + 0.5))


def imgproxy_size(
    source: str,
    resizing_type: str = "fit",
    width: int = 0,
    height: int = 0,
    enlarge: bool = False,
    rotate: int = 0,
    padding: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> tuple[int, int]:
    """The result size imgproxy gives `source` (no crop, dpr, zoom, min sizes or extend)."""
    src_w, src_h, _ = SOURCES[source]
    if rotate % 180 == 90:
        src_w, src_h = src_h, src_w
    dst_w = width or src_w
    dst_h = height or src_h
    w_shrink = 1.0 if dst_w == src_w else src_w / dst_w
    h_shrink = 1.0 if dst_h == src_h else src_h / dst_h
    kind = resizing_type
    if w_shrink != 1 or h_shrink != 1:
        if kind == "auto":
            same_shape = (src_w - src_h >= 0 and dst_w - dst_h >= 0) or (src_w - src_h < 0 and dst_w - dst_h < 0)
            kind = "fill" if same_shape else "fit"
        if width == 0 and kind != "force":
            w_shrink = h_shrink
        elif height == 0 and kind != "force":
            h_shrink = w_shrink
        elif kind == "fit":
            w_shrink = h_shrink = max(w_shrink, h_shrink)
        elif kind in ("fill", "fill-down"):
            w_shrink = h_shrink = min(w_shrink, h_shrink)
    dpr_scale = 1.0
    if not enlarge:
        least = min(w_shrink, h_shrink)
        if least < 1:
            w_shrink /= least
            h_shrink /= least
            dpr_scale /= least
        dpr_scale = min(dpr_scale, min(w_shrink, h_shrink))
    w_shrink /= dpr_scale
    h_shrink /= dpr_scale
    scaled_w = _round(src_w / w_shrink)
    scaled_h = _round(src_h / h_shrink)
    target_w = _round(width * dpr_scale)
    target_h = _round(height * dpr_scale)
    crop_w, crop_h = target_w, target_h
    if resizing_type == "fill-down" and not enlarge and target_w and target_h:
        diff_w, diff_h = target_w / scaled_w, target_h / scaled_h
        if diff_w > diff_h and diff_w > 1:
            crop_w, crop_h = scaled_w, _round(scaled_w * target_h / target_w)
        elif diff_h > diff_w and diff_h > 1:
            crop_w, crop_h = _round(scaled_h * target_w / target_h), scaled_h
    out_w = min(crop_w, scaled_w) if crop_w else scaled_w
    out_h = min(crop_h, scaled_h) if crop_h else scaled_h
    top, right, bottom, left = padding
    return out_w + left + right, out_h + top + bottom


def case(library: str, name: str, url: str, source: str, size: tuple[int, int] | None, fmt: str | None,
         status: int = 200, note: str = "", also: tuple[int, ...] = ()) -> dict:
    """One URL and imgproxy's answer to it: `fmt` None means the source's own format; `also`, other
    refusal statuses that comet-server documents in place of imgproxy's."""
    expected_format = FORMAT_NAMES[fmt] if fmt else SOURCES[source][2]
    return {
        "library": library,
        "version": installed_version(library),
        "name": name,
        "url": url,
        "source": source,
        "status": status,
        "also": list(also),
        "size": list(size) if size else None,
        "format": expected_format if status == 200 else None,
        "note": note,
        "python": sys.version.split()[0],
    }


# ---------------------------------------------------------------------------------------------
# The libraries, each used as its README shows


def urls_imgproxy(base: str, origin: str, key: str, salt: str) -> list[dict]:
    """`imgproxy` 1.0.0 (klen/imgproxy): `ImgProxy(url, proxy_host=, key=, salt=, width=, ...)`,
    called with advanced options as strings, and `ImgProxy.factory`. It writes
    `/{advanced}/g:{gravity}/rs:{type}:{w}:{h}:{enlarge}/{base64 source}[.{extension}]`; it has no
    `plain/` sources."""
    from imgproxy import ImgProxy

    lib = "imgproxy"

    def src(name: str) -> str:
        return f"{origin}/{name}"

    # README, "Usage": the object with width and height, its str(), and calls that change it.
    img_url = ImgProxy(src("photo.jpg"), proxy_host=base, key=key, salt=salt, width=800, height=400)
    # README, "Image factories": the host and signature given once.
    img_factory = ImgProxy.factory(proxy_host=base, key=key, salt=salt)
    # README, "Options": the basic options. The README passes them when calling the object, but
    # then 1.0.0 writes the extension without its dot (a broken base64 source: `…Zwjpg`) and
    # enlarge as `True`: given to the constructor, as the README's first example does, they are
    # written `.jpg` and `1`.
    thumbnail = ImgProxy(src("portrait.png"), proxy_host=base, key=key, salt=salt, width=100, height=100,
                         gravity="no", extension="jpg", enlarge=True, resizing_type="fit")
    return [
        case(lib, "README: cover, auto 800×400", str(img_url), "photo.jpg",
             imgproxy_size("photo.jpg", "auto", 800, 400), None,
             note="auto is fill here (both landscape); fill without enlarge keeps 640 of 800"),
        case(lib, "README: cover_small, fill 400×200", img_url(width=400, height=200, resizing_type="fill"),
             "photo.jpg", imgproxy_size("photo.jpg", "fill", 400, 200), None),
        case(lib, "README: advanced pd:10:10:10:10, bg:F00", img_url("pd:10:10:10:10", "bg:F00"), "photo.jpg",
             imgproxy_size("photo.jpg", "auto", 800, 400, padding=(10, 10, 10, 10)), None,
             note="the README's assert shows rs:auto:0:0:0, but the object keeps its 800×400"),
        case(lib, "README: fit 100×100, g:no, jpg, enlarge", str(thumbnail),
             "portrait.png", imgproxy_size("portrait.png", "fit", 100, 100, enlarge=True), "jpg"),
        case(lib, "README: factory, width=600", str(img_factory(src("photo.jpg"), width=600)), "photo.jpg",
             imgproxy_size("photo.jpg", "auto", 600, 0), None),
        case(lib, "README: advanced blur:0.5, rotate:90", img_url("blur:0.5", "rotate:90", width=0, height=0),
             "photo.jpg", imgproxy_size("photo.jpg", "auto", 0, 0, rotate=90), None,
             note="the README's rotate:30 is not a multiple of 90, which imgproxy refuses"),
        case(lib, "fill 300×200, png", str(img_factory(src("portrait.png"), width=300, height=200,
                                                        resizing_type="fill", extension="png")),
             "portrait.png", imgproxy_size("portrait.png", "fill", 300, 200), "png"),
        case(lib, "fit 200×200, base64 source", str(img_factory(src("photo.jpg"), width=200, height=200,
                                                                resizing_type="fit", extension="png")),
             "photo.jpg", imgproxy_size("photo.jpg", "fit", 200, 200), "png"),
        case(lib, "width only (factory width=320)", str(img_factory(src("photo.jpg"), width=320)), "photo.jpg",
             imgproxy_size("photo.jpg", "auto", 320, 0), None),
        case(lib, "q:60 + webp", img_factory(src("photo.jpg"), width=320, height=320, resizing_type="fit",
                                             extension="webp")("q:60"),
             "photo.jpg", imgproxy_size("photo.jpg", "fit", 320, 320), "webp"),
        case(lib, "gravity sm, fill 200×200", str(img_factory(src("photo.jpg"), width=200, height=200,
                                                              resizing_type="fill", gravity="sm",
                                                              extension="webp")),
             "photo.jpg", imgproxy_size("photo.jpg", "fill", 200, 200), "webp"),
        case(lib, "gravity so, fill 200×200", str(img_factory(src("portrait.png"), width=200, height=200,
                                                              resizing_type="fill", gravity="so",
                                                              extension="png")),
             "portrait.png", imgproxy_size("portrait.png", "fill", 200, 200), "png"),
        case(lib, "advanced fl:1 (flip)", img_factory(src("photo.jpg"), width=320, extension="jpg")("fl:1"),
             "photo.jpg", imgproxy_size("photo.jpg", "auto", 320, 0), "jpg"),
        case(lib, "no extension: the source's format", str(img_factory(src("flat.png"), width=320)), "flat.png",
             imgproxy_size("flat.png", "auto", 320, 0), None,
             note="imgproxy keeps an opaque PNG a PNG"),
    ]


def urls_imgproxykit(base: str, origin: str, key: str, salt: str) -> list[dict]:
    """`imgproxykit` 0.4.0: `Client(base, key=, salt=)`, `Transform(option objects, scalar
    keywords)`, `client.url(source=, transform=)` and `client.variants(...)`. It writes long option
    names (`resize:fill:300:300/quality:80/format:webp`) and base64 sources only (its serializer
    says "TODO: Support the plain option"); the `plain/` rows use its documented extension point,
    `Client.path_serializer_cls`, with the options still serialized and the path signed by it."""
    from imgproxykit import Client, Transform
    from imgproxykit.options import Flip, Gravity, Resize, Size
    from imgproxykit.serialization import PathSerializer

    lib = "imgproxykit"

    class PlainSourceSerializer(PathSerializer):
        def __call__(self, source, *, transform=None):  # type: ignore[override]
            options = PathSerializer.__call__(self, "", transform=transform).rsplit("/", 1)[0]
            return f"{options}/plain/{source}"

    class PlainClient(Client):
        path_serializer_cls = PlainSourceSerializer

    def src(name: str) -> str:
        return f"{origin}/{name}"

    client = Client(base, key=key, salt=salt)
    plain = PlainClient(base, key=key, salt=salt)
    cases = []

    # README, "Single URL".
    thumbnail = Transform(Resize(width=300, height=300, mode="fill"), quality=80, format="webp")
    cases.append(case(lib, "README: single URL, fill 300×300 q80 webp",
                      client.url(source=src("photo.jpg"), transform=thumbnail), "photo.jpg",
                      imgproxy_size("photo.jpg", "fill", 300, 300), "webp"))
    # README, "Variants".
    base_transform = Transform(quality=85, format="webp")
    products = {
        "small": Transform(*base_transform.options, width=320),
        "medium": Transform(*base_transform.options, width=640),
        "large": Transform(*base_transform.options, width=1280),
    }
    product_urls = client.variants(source=src("photo.jpg"), variants=products)
    for name, width in (("small", 320), ("medium", 640), ("large", 1280)):
        cases.append(case(lib, f"README: variants, {name} (width {width})", product_urls[name], "photo.jpg",
                          imgproxy_size("photo.jpg", "fit", width, 0), "webp",
                          note="no enlarge: 640 wide at most" if width > 640 else ""))
    cases += [
        case(lib, "fill 300×200, plain source @png",
             plain.url(source=src("portrait.png") + "@png", transform=Transform(Resize(width=300, height=200,
                                                                                       mode="fill"))),
             "portrait.png", imgproxy_size("portrait.png", "fill", 300, 200), "png"),
        case(lib, "fit 200×200, plain source percent-encoded @webp",
             plain.url(source=urllib.parse.quote(src("photo.jpg") + "?v=1", safe="") + "@webp",
                       transform=Transform(Resize(width=200, height=200, mode="fit"))),
             "photo.jpg", imgproxy_size("photo.jpg", "fit", 200, 200), "webp"),
        case(lib, "fit 200×200, base64 source, format png",
             client.url(source=src("portrait.png"), transform=Transform(Resize(width=200, height=200, mode="fit"),
                                                                        format="png")),
             "portrait.png", imgproxy_size("portrait.png", "fit", 200, 200), "png"),
        case(lib, "width only", client.url(source=src("photo.jpg"), transform=Transform(width=320)), "photo.jpg",
             imgproxy_size("photo.jpg", "fit", 320, 0), None),
        case(lib, "quality 60 + format webp",
             client.url(source=src("portrait.png"), transform=Transform(Resize(width=240, height=240, mode="fit"),
                                                                        quality=60, format="webp")),
             "portrait.png", imgproxy_size("portrait.png", "fit", 240, 240), "webp"),
        case(lib, "gravity sm, format jpg",
             client.url(source=src("photo.jpg"), transform=Transform(Resize(width=200, height=200, mode="fill"),
                                                                     Gravity(position="sm"), format="jpg")),
             "photo.jpg", imgproxy_size("photo.jpg", "fill", 200, 200), "jpg"),
        case(lib, "gravity fp:0.25:0.5",
             client.url(source=src("photo.jpg"),
                        transform=Transform(Resize(width=200, height=300, mode="fill"),
                                            Gravity(position="fp", offset_x=0.25, offset_y=0.5), format="png")),
             "photo.jpg", imgproxy_size("photo.jpg", "fill", 200, 300), "png"),
        case(lib, "Flip(horizontal=True)",
             client.url(source=src("portrait.png"), transform=Transform(Resize(width=300, height=200, mode="fill"),
                                                                        Flip(horizontal=True), format="png")),
             "portrait.png", imgproxy_size("portrait.png", "fill", 300, 200), "png"),
        case(lib, "Size + resizing_type fill",
             client.url(source=src("photo.jpg"), transform=Transform(Size(width=300, height=200),
                                                                     resizing_type="fill", format="webp")),
             "photo.jpg", imgproxy_size("photo.jpg", "fill", 300, 200), "webp"),
    ]
    return cases


def urls_imgproxy_python(base: str, origin: str, key: str, salt: str) -> list[dict]:
    """`imgproxy-python` 0.0.2: `UrlGenerator(url, config).get_full_signed_url()`. It writes only
    imgproxy's old *basic* URL format (`/sig/fill/300/300/ce/0/{base64 in 16-character
    segments}`), which imgproxy 3 removed: it answers 404 ("It looks like you're using the
    deprecated basic URL format"). So its rows expect that refusal
    (or comet-server's 400 for a malformed URL, which its Serving guide documents)."""
    from imgproxy_python.urls import UrlGenerator

    lib = "imgproxy-python"
    config = {
        "imgproxy_key": key,
        "imgproxy_salt": salt,
        "imgproxy_host": base,
        "options": {"resize": "fill", "width": 300, "height": 300},
    }
    readme = UrlGenerator(f"{origin}/photo.jpg", config).get_full_signed_url()
    config_png = dict(config, options={"resize": "fit", "width": 200, "height": 200, "extension": ".png"})
    with_extension = UrlGenerator(f"{origin}/portrait.png", config_png).get_full_signed_url()
    # imgproxy answers 404; comet-server answers a malformed URL 400, as the Serving guide says.
    refused = "imgproxy 3 refuses the basic URL format with 404; comet-server's documented 400 also passes"
    return [
        case(lib, "README: basic format, fill 300×300", readme, "photo.jpg", None, None, status=404, also=(400,),
             note=refused),
        case(lib, "basic format, fit 200×200 .png", with_extension, "portrait.png", None, None, status=404,
             also=(400,), note=refused),
    ]


BUILDERS = {"imgproxy": urls_imgproxy, "imgproxykit": urls_imgproxykit, "imgproxy-python": urls_imgproxy_python}


# ---------------------------------------------------------------------------------------------
# The run


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


def make_sources(directory: Path) -> None:
    from PIL import Image, ImageDraw

    width, height, _ = SOURCES["photo.jpg"]
    photo = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(photo)
    for x in range(0, width, 8):  # a gradient with bars, so the crops differ
        draw.rectangle([x, 0, x + 7, height], fill=(x * 255 // width, 120, 255 - x * 255 // width))
    draw.ellipse([400, 100, 560, 260], fill=(250, 220, 40))
    photo.save(directory / "photo.jpg", quality=90)
    photo.save(directory / "flat.png")
    width, height, _ = SOURCES["portrait.png"]
    portrait = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(portrait)
    draw.rectangle([40, 40, width - 40, height - 40], fill=(30, 144, 255, 200))
    draw.ellipse([120, 400, 360, 600], fill=(220, 20, 60, 255))
    portrait.save(directory / "portrait.png")


class Run:
    """The origin and comet-server, stopped however the run ends."""

    def __init__(self, server_binary: str, work: Path):
        self.server_binary = server_binary
        self.work = work
        self.origin: ThreadingHTTPServer | None = None
        self.server: subprocess.Popen | None = None
        self.key = secrets.token_hex(32)
        self.salt = secrets.token_hex(16)

    def start(self, images: Path) -> None:
        handler = lambda *a, **k: QuietHandler(*a, directory=str(images), **k)  # noqa: E731
        self.origin = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin.daemon_threads = True
        threading.Thread(target=self.origin.serve_forever, daemon=True).start()
        self.origin_url = f"http://127.0.0.1:{self.origin.server_address[1]}"

        environment = dict(os.environ, COMET_KEY=self.key, COMET_SALT=self.salt)
        self.log = open(self.work / "comet-server.log", "wb")
        self.server = subprocess.Popen(
            [self.server_binary, "--host", "127.0.0.1", "--port", "0", "--allow-private-networks",
             "--allow-source", self.origin_url + "/", "--log-level", "warning"],
            env=environment, stdout=subprocess.PIPE, stderr=self.log, start_new_session=True)
        (self.work / "comet-server.pid").write_text(str(self.server.pid))
        line = self._read_line(timeout=60)
        prefix = "comet-server listening on "
        if not line.startswith(prefix):
            raise RuntimeError(f"comet-server did not start (it printed {line!r}; log: {self.work}/comet-server.log)")
        self.base = line[len(prefix):].split()[0].rstrip("/")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or self.server.poll() is not None:
                raise RuntimeError("comet-server's /health did not answer 200")
            time.sleep(0.2)

    def _read_line(self, timeout: float) -> str:
        result: list[str] = []
        reader = threading.Thread(target=lambda: result.append(self.server.stdout.readline().decode()), daemon=True)
        reader.start()
        reader.join(timeout)
        return result[0].strip() if result else ""

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            try:
                self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait(timeout=5)
        if self.origin is not None:
            self.origin.shutdown()
            self.origin.server_close()


def fetch(url: str) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers={"Accept": "*/*", "User-Agent": "comet-imgproxy-clients"})
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def check(item: dict) -> dict:
    from PIL import Image

    try:
        status, content_type, body = fetch(item["url"])
    except OSError as error:
        return dict(item, got=f"no answer: {error}", passed=False, body="")
    if status != 200:
        got = str(status)
        detail = body[:300].decode("utf-8", "replace")
        return dict(item, got=got, passed=status in [item["status"], *item["also"]], body=detail)
    try:
        image = Image.open(io.BytesIO(body))
        image.load()
        decoded = (image.format or "?").lower()
        size = image.size
    except Exception as error:  # noqa: BLE001 - whatever Pillow says is the answer
        return dict(item, got=f"200 {content_type}, undecodable: {error}", passed=False, body="")
    got = f"200 {content_type} {size[0]}×{size[1]} {decoded}"
    passed = (
        item["status"] == 200
        and content_type.split(";")[0].strip() == CONTENT_TYPES[item["format"]]
        and decoded == item["format"]
        and list(size) == item["size"]
    )
    return dict(item, got=got, passed=passed, body="")


def shorten(url: str, base: str, origin: str) -> str:
    """The path, its signature cut to 6 characters, base64 sources named by their file."""
    path = url[len(base):] if url.startswith(base) else url
    parts = path.split("/")
    if len(parts) > 1 and len(parts[1]) > 8:
        parts[1] = parts[1][:6] + "…"
    path = "/".join(parts)
    for name in SOURCES:
        encoded = base64.urlsafe_b64encode(f"{origin}/{name}".encode()).decode().rstrip("=")
        path = path.replace(encoded, f"{{b64:{name}}}")
    return path.replace(origin, "http://origin").replace(urllib.parse.quote(origin, safe=""),
                                                       urllib.parse.quote("http://origin", safe=""))


def expected_text(item: dict) -> str:
    if item["status"] != 200:
        return " or ".join(str(s) for s in [item["status"], *item["also"]]) + " (refused)"
    return f"200 {CONTENT_TYPES[item['format']]} {item['size'][0]}×{item['size'][1]}"


def run_check(args: argparse.Namespace) -> int:
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    run = Run(args.server, work)
    results: list[dict] = []
    problems: list[str] = []
    try:
        with tempfile.TemporaryDirectory(prefix="comet-clients-") as images:
            make_sources(Path(images))
            run.start(Path(images))
            for spec in args.builder:
                library, _, python = spec.partition("=")
                command = [python, __file__, "urls", library, "--base", run.base, "--origin", run.origin_url,
                           "--key", run.key, "--salt", run.salt]
                try:
                    built = subprocess.run(command, capture_output=True, text=True, timeout=60)
                except subprocess.TimeoutExpired:
                    problems.append(f"{library}: building its URLs took over 60 s")
                    continue
                if built.returncode != 0:
                    problems.append(f"{library}: could not build URLs with {python}:\n{built.stderr.strip()}")
                    continue
                for item in json.loads(built.stdout):
                    results.append(check(item))
            for library in args.missing:
                problems.append(f"{library}: not run ({library} needs Python >= 3.12, and none was found)")
    except RuntimeError as error:
        problems.append(f"imgproxy-clients: {error}")
    finally:
        run.stop()

    lines = [
        "| library | version | case | URL (signature shortened) | expected | got | result |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        url = shorten(r["url"], getattr(run, "base", ""), getattr(run, "origin_url", "")).replace("|", "\\|")
        lines.append(f"| {r['library']} | {r['version']} | {r['name']} | `{url}` | {expected_text(r)} | {r['got']} | "
                     f"{'pass' if r['passed'] else '**FAIL**'} |")
    table = "\n".join(lines)
    failed = [r for r in results if not r["passed"]]
    summary = f"{len(results) - len(failed)} passed, {len(failed)} failed"
    out = [table, ""]
    for r in failed:
        out.append(f"FAIL {r['library']} {r['version']}, {r['name']}:\n  GET {r['url']}\n  expected "
                   f"{expected_text(r)}, got {r['got']}" + (f"\n  body: {r['body']}" if r["body"] else "")
                   + (f"\n  note: {r['note']}" if r["note"] else ""))
    out += problems
    interpreters = {}
    for r in results:
        interpreters.setdefault(f"{r['library']} {r['version']}", r["python"])
    out.append("Python: " + "; ".join(f"{name} on {python}" for name, python in interpreters.items()))
    out.append(summary)
    text = "\n".join(out)
    print(text)
    (work / "results.md").write_text(text + "\n")
    return 0 if not failed and not problems and results else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    urls = sub.add_parser("urls", help="print one library's URLs as JSON")
    urls.add_argument("library", choices=sorted(BUILDERS))
    for name in ("--base", "--origin", "--key", "--salt"):
        urls.add_argument(name, required=True)
    checking = sub.add_parser("check", help="run every library's URLs against comet-server")
    checking.add_argument("--server", required=True, help="the comet-server binary")
    checking.add_argument("--builder", action="append", default=[], metavar="LIBRARY=PYTHON",
                          help="a library and the interpreter that has it (repeatable)")
    checking.add_argument("--missing", action="append", default=[], metavar="LIBRARY",
                          help="a library that could not be installed (reported as a failure)")
    checking.add_argument("--work", required=True, help="where the log and results.md go")
    checking.add_argument("--deadline", type=int, default=600, help="seconds the whole check may take")
    args = parser.parse_args()
    if args.mode == "urls":
        print(json.dumps(BUILDERS[args.library](args.base, args.origin, args.key, args.salt)))
        return 0

    def give_up(signum, frame):
        raise SystemExit(f"imgproxy-clients: stopped ({'deadline' if signum == signal.SIGALRM else 'signal'})")

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
        signal.signal(signum, give_up)
    signal.alarm(args.deadline)
    return run_check(args)


if __name__ == "__main__":
    sys.exit(main())
