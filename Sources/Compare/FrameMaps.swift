/// Per-pixel side channels of a rendered frame: the translucency weight (0...255, the fraction of
/// the pixel's colour that comes from blurred backdrop) and the element on top (a small id), with
/// the names of the ids. Stored in a baseline's side-data chunk, so comparisons can use them.
public struct FrameMaps: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width * height` weights, or nil when the frame has none.
    public var translucency: [UInt8]?
    /// `width * height` element ids, or nil.
    public var elements: [UInt8]?
    /// Names of element ids (e.g. 3: "title").
    public var elementNames: [UInt8: String]

    public init(width: Int, height: Int, translucency: [UInt8]? = nil, elements: [UInt8]? = nil,
                elementNames: [UInt8: String] = [:]) {
        precondition(translucency.map { $0.count == width * height } ?? true, "translucency map size")
        precondition(elements.map { $0.count == width * height } ?? true, "element map size")
        self.width = width
        self.height = height
        self.translucency = translucency
        self.elements = elements
        self.elementNames = elementNames
    }

    // Layout (version 1), all integers big-endian:
    //   "NRM1", width u32, height u32, flags u8 (1: translucency, 2: elements),
    //   name count u16, then per name: id u8, length u16, UTF-8 bytes,
    //   then the translucency plane, then the element plane.
    static let magic: [UInt8] = Array("NRM1".utf8)

    public func serialized() -> [UInt8] {
        var out = Self.magic
        func u32(_ v: Int) { out += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        u32(width)
        u32(height)
        out.append((translucency != nil ? 1 : 0) | (elements != nil ? 2 : 0))
        let names = elementNames.sorted { $0.key < $1.key }
        u16(names.count)
        for (id, name) in names {
            let bytes = Array(name.utf8.prefix(65535))
            out.append(id)
            u16(bytes.count)
            out += bytes
        }
        if let translucency { out += translucency }
        if let elements { out += elements }
        return out
    }

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self { case .malformed(let why): return "frame maps: \(why)" }
        }
    }

    public init(serialized bytes: [UInt8]) throws(DecodeError) {
        var p = 0
        func need(_ n: Int) throws(DecodeError) {
            guard bytes.count - p >= n else { throw .malformed("ends early at byte \(p)") }
        }
        func u32() throws(DecodeError) -> Int {
            try need(4)
            defer { p += 4 }
            return Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
        }
        func u16() throws(DecodeError) -> Int {
            try need(2)
            defer { p += 2 }
            return Int(bytes[p]) << 8 | Int(bytes[p + 1])
        }
        try need(4)
        guard Array(bytes[0..<4]) == Self.magic else { throw .malformed("unknown layout (expected NRM1)") }
        p = 4
        let width = try u32(), height = try u32()
        try need(1)
        let flags = bytes[p]
        p += 1
        var names: [UInt8: String] = [:]
        for _ in 0..<(try u16()) {
            try need(1)
            let id = bytes[p]
            p += 1
            let length = try u16()
            try need(length)
            names[id] = String(decoding: bytes[p..<p + length], as: UTF8.self)
            p += length
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .malformed("absurd size \(width)x\(height)") }
        var translucency: [UInt8]?
        var elements: [UInt8]?
        if flags & 1 != 0 {
            try need(count)
            translucency = Array(bytes[p..<p + count])
            p += count
        }
        if flags & 2 != 0 {
            try need(count)
            elements = Array(bytes[p..<p + count])
            p += count
        }
        guard p == bytes.count else { throw .malformed("\(bytes.count - p) unexpected trailing bytes") }
        self.init(width: width, height: height, translucency: translucency, elements: elements, elementNames: names)
    }
}
