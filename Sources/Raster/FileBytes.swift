#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with a size limit checked before the buffer is allocated.
public enum FileBytes {
    public static func read(path: String, limit: Int) throws(PNGError) -> [UInt8] {
        // Opened without waiting: a named pipe with no writer blocked `navreel diff` for ever (an
        // audit, 2026-11-29); reads then wait as usual.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ioError(path, "cannot open", errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError(path, "cannot stat", errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw PNGError(source: path, kind: .io, message: "it is a directory, not a file")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break   // (O_NONBLOCK does nothing to a regular file's reads)
        case S_IFIFO, S_IFSOCK:
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
            // A pipe (`navreel diff <(git show HEAD:a.png) b.png`, /dev/stdin): its size is not
            // known before it is read, which st_size (0) said was empty.
            return try stream(fd, path: path, limit: limit)
        default:
            throw PNGError(source: path, kind: .io, message: "it is a device, not a file")
        }
        let size = Int(st.st_size)
        guard size <= limit else {
            throw PNGError(source: path, kind: .tooLarge, message: "the file has \(size) bytes, over the limit of \(limit)")
        }
        var failure: Int32 = 0
        var total = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while total < size {
                let n = Glibc_read(fd, buffer.baseAddress! + total, size - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }  // the file shrank while we read it
                total += n
            }
            count = total
        }
        if failure != 0 { throw ioError(path, "cannot read", failure) }
        return bytes
    }

    /// A pipe read to its end in blocks, up to `limit` bytes.
    static func stream(_ fd: Int32, path: String, limit: Int) throws(PNGError) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = block.withUnsafeMutableBufferPointer { Glibc_read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError(path, "cannot read", errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw PNGError(source: path, kind: .tooLarge, message: "the stream has more than \(limit) bytes, the limit")
            }
            bytes.append(contentsOf: block[0..<n])
        }
    }

    static func ioError(_ path: String, _ what: String, _ code: Int32) -> PNGError {
        PNGError(source: path, kind: .io, message: "\(what): \(String(cString: strerror(code)))")
    }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
