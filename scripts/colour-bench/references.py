"""Colour conversion in Pillow + ImageCms and in libvips (pyvips), on the benchmark's own files.

Run by `make bench` after the Swift suite (which writes the workloads): the same 20 Display P3
JPEGs (1024x768, q85) that Comet's "Colour conversion" figures decode. For each library it
measures a decode alone and the same decode converted to sRGB, one thread, and prints their
ratio next to the absolute times, so the three libraries' costs can be read side by side:

- Pillow: Image.open + load, then ImageCms.applyTransform with a transform built once (as Comet
  caches its transforms); Little CMS with Pillow's default flags.
- libvips: new_from_buffer + copy_memory (forces the decode), then the same with
  icc_transform("srgb") before copy_memory; VIPS_CONCURRENCY=1.
"""
import io
import os
import sys
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")

from PIL import Image, ImageCms  # noqa: E402
import pyvips  # noqa: E402


def load(folder, count=20):
    return [open(os.path.join(folder, "%03d" % i), "rb").read() for i in range(count)]


def measure(files, work, seconds=2.0):
    """Median per-image wall and CPU time (ms) over repeated passes of `files`."""
    for data in files[:3]:
        work(data)
    walls, cpus = [], []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(walls) < 20:
        for data in files:
            w0, c0 = time.perf_counter(), time.process_time()
            work(data)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2] * 1e3, cpus[len(cpus) // 2] * 1e3


def main():
    root = sys.argv[1]
    files = load(os.path.join(root, "photo-grain9-1024x768-q85-p3"))
    srgb = ImageCms.createProfile("sRGB")
    first = Image.open(io.BytesIO(files[0]))
    p3 = ImageCms.ImageCmsProfile(io.BytesIO(first.info["icc_profile"]))
    perceptual = ImageCms.Intent.PERCEPTUAL if hasattr(ImageCms, "Intent") else ImageCms.INTENT_PERCEPTUAL
    transform = ImageCms.buildTransform(p3, srgb, "RGB", "RGB", perceptual)

    def pillow_decode(data):
        image = Image.open(io.BytesIO(data))
        image.load()
        return image

    def pillow_convert(data):
        return ImageCms.applyTransform(pillow_decode(data), transform)

    def vips_decode(data):
        return pyvips.Image.new_from_buffer(data, "", access="sequential").copy_memory()

    def vips_convert(data):
        image = pyvips.Image.new_from_buffer(data, "", access="sequential")
        return image.icc_transform("srgb").copy_memory()

    rows = [
        ("Pillow " + Image.__version__ + " + ImageCms", measure(files, pillow_decode), measure(files, pillow_convert)),
        ("libvips %d.%d (pyvips)" % (pyvips.version(0), pyvips.version(1)), measure(files, vips_decode),
         measure(files, vips_convert)),
    ]
    print("| Library | decode (ms, wall / CPU) | decode + P3 → sRGB (ms, wall / CPU) | ratio (wall) |")
    print("| --- | --- | --- | --- |")
    for name, plain, converted in rows:
        print("| %s | %.2f / %.2f | %.2f / %.2f | %.2f× |" % (
            name, plain[0], plain[1], converted[0], converted[1], converted[0] / plain[0]))


if __name__ == "__main__":
    main()
