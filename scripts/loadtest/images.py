"""Generates the load test's source images: deterministic photo-like JPEGs (smooth gradients,
soft shapes, fine grain) so that encoders work as they do on photographs, not on flat colour."""
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter


def generate(directory: Path, count: int = 200, width: int = 1024, height: int = 768) -> list[str]:
    """Writes photo-NNN.jpg (quality 85) into `directory` unless already there; returns the names."""
    directory.mkdir(parents=True, exist_ok=True)
    names = [f"photo-{index:03d}.jpg" for index in range(count)]
    for index, name in enumerate(names):
        path = directory / name
        if path.exists() and path.stat().st_size > 0:
            continue
        rng = random.Random(index)
        top = tuple(rng.randrange(256) for _ in range(3))
        bottom = tuple(rng.randrange(256) for _ in range(3))
        gradient = Image.linear_gradient("L").resize((width, height))
        image = Image.composite(Image.new("RGB", (width, height), bottom), Image.new("RGB", (width, height), top), gradient)
        draw = ImageDraw.Draw(image)
        for _ in range(40):
            x, y = rng.randrange(width), rng.randrange(height)
            r = rng.randrange(20, 200)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
        image = image.filter(ImageFilter.GaussianBlur(6))
        grain = Image.effect_noise((width, height), 18).convert("RGB")
        image = Image.blend(image, grain, 0.12)
        image.save(path, "JPEG", quality=85)
    return names
