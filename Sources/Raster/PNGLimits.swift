/// Size limits applied before any large allocation. A file over a limit is refused with
/// `PNGError.Kind.tooLarge`; raise the limits for unusual inputs.
public struct PNGLimits: Sendable, Equatable {
    /// Largest width and height, in pixels.
    public var maxSide: Int
    /// Largest width × height.
    public var maxPixels: Int
    /// Largest chunk other than image data (text, private side data, ICC profiles...).
    public var maxChunkBytes: Int
    /// Largest file read from disk.
    public var maxFileBytes: Int
    /// Largest side data after decompression.
    public var maxSideDataBytes: Int

    /// Side data (the maps) may inflate to at most this many bytes a pixel of the image...
    public var sideDataBytesPerPixel = 2
    /// ...plus this many (its header and element names).
    public var sideDataExtraBytes = 1 << 20
    /// Any chunk may allocate this much (compressed text inflates into at most this, or the
    /// largest chunk of the file when that is more).
    public var minChunkAllocation = 1 << 20
    /// The pixels of an image may be allocated before its data is proven to hold every row when
    /// they take at most this many bytes...
    public var unprovenPixelBytes = 64 << 20
    /// ...or at most this many bytes per byte of the file (UI screenshots and NavReel's frames
    /// take 40 to 150). Either way the allocation is address space: memory is touched only by
    /// the rows the data decodes to. Larger images are proven first (one extra pass of zlib).
    public var unprovenPixelBytesPerFileByte = 256

    public init(maxSide: Int = 16_384, maxPixels: Int = 1 << 28, maxChunkBytes: Int = 64 << 20,
                maxFileBytes: Int = 1 << 30, maxSideDataBytes: Int = 1 << 30) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxChunkBytes = maxChunkBytes
        self.maxFileBytes = maxFileBytes
        self.maxSideDataBytes = maxSideDataBytes
    }

    public static let `default` = PNGLimits()
}
