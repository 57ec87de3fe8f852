import Comet

/// The effects: each runs after the resize, on the result's pixels, so its cost follows the
/// result's size, not the source's. A value that changes nothing (`bl:0`, `brightness:0`) is no
/// option at all, so it does not split the cache.
extension ThumbnailOptions {
    static let blur = ThumbnailOption(
        name: "bl", longName: "blur", syntax: "{sigma}",
        summary: "a Gaussian blur of standard deviation σ (result pixels, at most 256)",
        example: "bl:2.5",
        get: { $0.blur }, set: { $0.blur = $1 == 0 ? nil : $1 }, reset: { $0.blur = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "bl takes one σ from 0 to \(Int(maximumBlurSigma)) pixels, as in bl:2.5") {
                OptionNumber.decimal($0).flatMap { (0...maximumBlurSigma).contains($0) ? $0 : nil }
            }
        },
        spell: { sigma, output in output.appendArgument(sigma) }
    )

    static let sharpen = ThumbnailOption(
        name: "sh", longName: "sharpen", syntax: "{sigma}",
        summary: "an unsharp mask whose Gaussian has standard deviation σ (result pixels, at most 16; 0.5 suits "
            + "screens), strength 1",
        example: "sh:0.5",
        get: { $0.sharpen }, set: { $0.sharpen = $1 == 0 ? nil : $1 }, reset: { $0.sharpen = nil },
        parse: { arguments, _ throws(ServiceError) in
            let sigma = try single(arguments, usage: "sh takes one σ in pixels, as in sh:0.5") {
                OptionNumber.decimal($0)
            }
            try validating("sh") { () throws(ImageProcessingError) in
                try ImageProcessors.Sharpen(radius: sigma).validate()
            }
            return sigma
        },
        spell: { sigma, output in output.appendArgument(sigma) }
    )

    static let pixelate = ThumbnailOption(
        name: "pix", longName: "pixelate", syntax: "{size}",
        summary: "replace squares of `size` × `size` result pixels (at most 1024) by their average colour",
        example: "pix:8",
        get: { $0.pixelate }, set: { $0.pixelate = $1 <= 1 ? nil : $1 }, reset: { $0.pixelate = nil },
        parse: { arguments, _ throws(ServiceError) in
            let size = try single(arguments, usage: "pix takes one block size in pixels, as in pix:8") {
                OptionNumber.integer($0)
            }
            guard size != 0 else { return 0 }
            try validating("pix") { () throws(ImageProcessingError) in
                try ImageProcessors.Pixelate(size: size).validate()
            }
            return size
        },
        spell: { size, output in output.appendArgument(size) }
    )

    static let grayscale = ThumbnailOption(
        name: "grayscale", longName: "grayscale", syntax: "{1|0}",
        summary: "`1`: grey by BT.601 luma (thumbor's `grayscale()`; imgproxy has no such option in open source)",
        example: "grayscale:1",
        get: { $0.grayscale }, set: { $0.grayscale = $1 ? true : nil }, reset: { $0.grayscale = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "grayscale takes 1 or 0, as in grayscale:1", flag)
        },
        spell: { _, output in output.appendArgument("1") }
    )

    static let brightness = ThumbnailOption(
        name: "brightness", longName: "brightness", syntax: "{-100…100}",
        summary: "add `amount` percent of full scale to every channel (thumbor's `brightness(amount)`)",
        example: "brightness:40",
        get: { $0.brightness }, set: { $0.brightness = $1 == 0 ? nil : $1 }, reset: { $0.brightness = nil },
        parse: { arguments, _ throws(ServiceError) in
            let amount = try single(arguments, usage: "brightness takes one percentage, as in brightness:40") {
                OptionNumber.decimal($0)
            }
            try validating("brightness") { () throws(ImageProcessingError) in
                try ImageProcessors.Brightness(amount: amount).validate()
            }
            return amount
        },
        spell: { amount, output in output.appendArgument(amount) }
    )

    static let contrast = ThumbnailOption(
        name: "contrast", longName: "contrast", syntax: "{-100…100}",
        summary: "raise or lower contrast around mid-grey by `amount` percent (thumbor's `contrast(amount)`)",
        example: "contrast:-30",
        get: { $0.contrast }, set: { $0.contrast = $1 == 0 ? nil : $1 }, reset: { $0.contrast = nil },
        parse: { arguments, _ throws(ServiceError) in
            let amount = try single(arguments, usage: "contrast takes one percentage, as in contrast:-30") {
                OptionNumber.decimal($0)
            }
            try validating("contrast") { () throws(ImageProcessingError) in
                try ImageProcessors.Contrast(amount: amount).validate()
            }
            return amount
        },
        spell: { amount, output in output.appendArgument(amount) }
    )

    /// The largest `bl` σ, in pixels: `GaussianBlur`'s own cap; past it the result is a flat colour.
    static let maximumBlurSigma = 256.0
}
