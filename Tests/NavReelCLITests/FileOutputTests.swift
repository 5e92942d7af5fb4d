import Foundation
import Testing
@testable import NavReel

/// `FileOutput.write` remembers the folders it made (issue 17: one check a folder, not 4.7 `stat`
/// calls a file). A folder removed behind its back must be made again, and no temporary file may
/// be left, whatever happens.
@Suite("atomic file output")
struct FileOutputTests {
    static func leftovers(_ folder: URL) -> [String] {
        let all = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        return all.filter { $0.hasSuffix(".tmp") }
    }

    @Test("a folder removed between two writes is made again; nested folders are made; nothing temporary is left")
    func folderRemovedBetweenWrites() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("scenario/device/0000.png").path
        let second = root.appendingPathComponent("scenario/device/0001.png").path
        try FileOutput.write([1, 2, 3], to: first)
        #expect(FileManager.default.contents(atPath: first) == Data([1, 2, 3]))
        // Removed after the first write: the process still "knows" the folder.
        try FileManager.default.removeItem(at: root.appendingPathComponent("scenario"))
        try FileOutput.write([4, 5], to: second)
        #expect(FileManager.default.contents(atPath: second) == Data([4, 5]))
        #expect(!FileManager.default.fileExists(atPath: first))
        // Again, durable and not, over an existing file.
        try FileManager.default.removeItem(at: root.appendingPathComponent("scenario"))
        try FileOutput.write([6], to: second, durable: false)
        try FileOutput.write([7, 8, 9], to: second)
        #expect(FileManager.default.contents(atPath: second) == Data([7, 8, 9]))
        #expect(Self.leftovers(root).isEmpty)
    }

    @Test("temporary names are this process's id and a number; names a killed process left are skipped and kept")
    func temporaryNamesTaken() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("0000.png").path
        let a = FileOutput.temporaryName(for: "0000.png"), b = FileOutput.temporaryName(for: "0000.png")
        #expect(a != b)
        #expect(FileOutput.temporaryOwner(a)?.name == "0000.png" && FileOutput.temporaryOwner(a)?.pid == getpid())
        // Files left under the next three names a writer would use (as a killed process with
        // the same id would leave them): numbers of the test's own, as other tests write too.
        let numbers = FileOutput.TemporaryNumbers(start: 41)
        let stale = (42...44).map { root.appendingPathComponent(".0000.png.\(getpid()).\($0).tmp").path }
        for path in stale { try Data([9]).write(to: URL(fileURLWithPath: path)) }
        try FileOutput.write([1, 2, 3], to: target, durable: true, numbers: numbers)
        #expect(FileManager.default.contents(atPath: target) == Data([1, 2, 3]))
        #expect(stale.allSatisfy { FileManager.default.contents(atPath: $0) == Data([9]) }, "the files left are not written over")
        #expect(numbers.last == 45, "the fourth number was free")
        #expect(Self.leftovers(root).count == 3)
    }

    @Test("a folder replaced by a file is an error naming the path, and nothing is written")
    func folderReplacedByFile() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("a/b/0000.png").path
        try FileOutput.write([1], to: target)
        try FileManager.default.removeItem(at: root.appendingPathComponent("a/b"))
        try Data([0]).write(to: root.appendingPathComponent("a/b"))
        #expect { try FileOutput.write([2], to: target) } throws: { "\($0)".contains("a/b") }
        #expect(Self.leftovers(root).isEmpty)
    }

    /// The folder and name come from the path as text (issue 17: no Foundation URL a write).
    @Test("paths split into folder and name as the file system reads them; a path naming a folder is an error")
    func pathSplitting() throws {
        #expect(try FileOutput.split("a/b/c.png") == ("a/b", "c.png"))
        #expect(try FileOutput.split("c.png") == (".", "c.png"))
        #expect(try FileOutput.split("/c.png") == ("/", "c.png"))
        #expect(try FileOutput.split("a//c.png") == ("a/", "c.png"))
        #expect(try FileOutput.split("./.hidden") == (".", ".hidden"))
        #expect { try FileOutput.split("out/") } throws: { "\($0)".contains("out/: names a folder") }
        #expect { try FileOutput.split("") } throws: { "\($0)".contains("empty path") }
        // Written through such paths: into a folder that exists but this process did not make,
        // and to a path that names a folder (an error; nothing is written or left).
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("made"), withIntermediateDirectories: true)
        let inside = root.appendingPathComponent("made").path + "//0001.png"
        try FileOutput.write([5, 6], to: inside, durable: false)
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent("made/0001.png").path) == Data([5, 6]))
        #expect { try FileOutput.write([1], to: root.appendingPathComponent("made").path + "/") } throws: { "\($0)".contains("names a folder") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("made").path) == ["0001.png"])
        #expect(Self.leftovers(root).isEmpty)
    }

    @Test("threads writing into the same new folder at once all succeed (the folder is made by one, found by the others)")
    func concurrentNewFolder() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let failures = Failures()
        // As a record's jobs do: each thread into a device folder of its own under one new scenario
        // folder, which they all make at once (a record once failed a frame here: a check of the
        // parent between its `stat` and `lstat` took the folder just made for a dangling link).
        for round in 0..<1500 {
            let scenario = root.appendingPathComponent("r\(round)/scenario").path
            DispatchQueue.concurrentPerform(iterations: 8) { k in
                do { try FileOutput.write([UInt8(k)], to: scenario + "/device\(k % 4)/\(k).png", durable: false) } catch { failures.add("\(error)") }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.count) failed: \(failures.all.prefix(3))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("r1499/scenario/device3").path).count == 2)
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }
}
