#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with a size limit checked before the buffer is allocated.
public enum FileBytes {
    public static func read(path: String, limit: Int) throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError(path, "cannot open", errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError(path, "cannot stat", errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw PNGError(source: path, kind: .io, message: "it is a directory, not a file")
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
