import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Writes files atomically: a temporary file in the same folder, flushed to disk, then renamed
/// over the target, so a reader (or a crash) never sees half a file. `durable: false` skips the
/// flush, for report artefacts the next run writes again.
public enum FileOutput {
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UsageError("\(temporary.path): cannot create: \(String(cString: strerror(errno)))") }
        var ok = false
        defer {
            if !ok { unlink(temporary.path) }
        }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let message = String(cString: strerror(errno))
                    close(fd)
                    throw UsageError("\(path): cannot write: \(message)")
                }
                offset += n
            }
        }
        guard !durable || fsync(fd) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw UsageError("\(path): cannot flush: \(message)")
        }
        // Without a flush, a full disk or quota (NFS especially) may show only here.
        guard close(fd) == 0 else {
            throw UsageError("\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temporary.path, path) == 0 else {
            throw UsageError("\(path): cannot rename into place: \(String(cString: strerror(errno)))")
        }
        ok = true
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }
}
