/// Why a PNG could not be read or written. Every error names its source (a file path, or a
/// description such as "<memory>") so a message can always say which file was at fault.
public struct PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The bytes are not a PNG at all.
        case notPNG = "not a PNG"
        /// The file ends before its data does.
        case truncated
        /// The structure or compressed data is damaged (bad CRC, bad zlib data, bad header).
        case corrupt
        /// A declared size is over a limit (dimensions, pixels, chunk length, file size).
        case tooLarge = "too large"
        /// The file could not be read or written.
        case io = "I/O error"
        /// The image or metadata cannot be encoded as given.
        case unencodable
    }

    public let source: String
    public let kind: Kind
    /// A plain sentence; for libpng failures it includes libpng's own message.
    public let message: String

    public init(source: String, kind: Kind, message: String) {
        self.source = source
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(source): \(kind.rawValue): \(message)" }
}
