extension ThumbnailOptions {
    /// How each option of ``table`` compares with imgproxy's open-source option of the same name,
    /// by short name: "as imgproxy", or exactly how it differs. The Serving guide's options table
    /// shows it in its "imgproxy" column (``markdownTable``), and a test checks that every option
    /// has an entry. Statuses are the guide's concern: every bad value here is a 400 where
    /// imgproxy answers 404.
    static let imgproxyComparison: [String: String] = [
        "ar": "as imgproxy",
        "t": "as imgproxy (a translucent source is judged on magenta); an animation is not trimmed, as there",
        "rot": "as imgproxy",
        "fl": "as imgproxy",
        "cr": "Comet's own: imgproxy has no crop by corner",
        "g": "as imgproxy, but an offset below 1 is a fraction of the result's side (imgproxy: of the scaled "
            + "image's), and `sm` is Comet's detail, saturation and skin-tone score (not libvips' smartcrop); "
            + "`obj` and `objw` are imgproxy Pro's",
        "c": "as imgproxy",
        "dpr": "as imgproxy, at most 8",
        "z": "as imgproxy, at most 8",
        "el": "as imgproxy",
        "mw": "as imgproxy",
        "mh": "as imgproxy",
        "rs": "as imgproxy",
        "s": "as imgproxy",
        "w": "as imgproxy",
        "h": "as imgproxy",
        "rt": "as imgproxy",
        "ex": "as imgproxy; `sm` cannot place an extended image",
        "exar": "as imgproxy; `sm` cannot place an extended image",
        "bl": "as imgproxy, σ at most 256",
        "sh": "as imgproxy's σ (an unsharp mask of strength 1), at most 16",
        "pix": "as imgproxy, at most 1024",
        "grayscale": "Comet's own (thumbor's filter; imgproxy's `monochrome` is Pro)",
        "brightness": "Comet's own (thumbor's filter and scale; imgproxy's `br` is Pro)",
        "contrast": "Comet's own (thumbor's filter and scale; imgproxy's `co` is Pro)",
        "pd": "as imgproxy",
        "wm": "as imgproxy's open-source watermark: one image, given at start-up (`--watermark`)",
        "q": "as imgproxy; the defaults are JPEG 85, WebP 80, AVIF 60 (imgproxy: 80, 79, 63)",
        "fq": "as imgproxy, for JPEG, WebP and AVIF",
        "mb": "as imgproxy, for JPEG, WebP and AVIF (at most six more encodes)",
        "f": "as imgproxy for JPEG, PNG, WebP, AVIF and GIF; another image format is a 422",
        "bg": "as imgproxy",
        "scp": "as imgproxy",
        "sm": "`1` only: results never carry EXIF, XMP or IPTC (`0` is a 400)",
        "kcr": "`0` only: no metadata is kept (`1` is a 400)",
        "skp": "as imgproxy",
        "raw": "differs: the source still waits in the queue and is held to the limits, and only image bytes "
            + "are sent as they are",
        "eth": "as imgproxy, for an upright JPEG source (orientation 1 or none)",
        "cb": "as imgproxy, at most 64 letters, digits, `.`, `_`, `~` or `-`",
        "exp": "as imgproxy",
        "fn": "as imgproxy, at most 128 letters, digits, `.`, `_`, `~` or `-` (any UTF-8 name in base64url)",
        "att": "as imgproxy",
        "msr": "as imgproxy's, with `--allow-security-options`, but it only lowers the server's limit",
        "msfs": "as imgproxy's, with `--allow-security-options`, but it only lowers the server's limit",
        "maf": "as imgproxy's, with `--allow-security-options`, but it only lowers the server's limit, and an "
            + "animation over it is a 422",
        "mafr": "as imgproxy's, with `--allow-security-options`, but it only lowers the server's limit",
        "mrd": "as imgproxy's, with `--allow-security-options`",
    ]
}
