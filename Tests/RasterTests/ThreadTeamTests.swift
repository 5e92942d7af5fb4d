import CPNG
import Dispatch
import Foundation
import Testing
@testable import Raster

/// NavReel's thread team (CPNG team.c, issue 17): every index exactly once whoever runs it,
/// nested and concurrent jobs handed to libdispatch, helpers free of their placement hint.
@Suite("Thread team")
struct ThreadTeamTests {
    /// What a job's iterations saw, filled in by the threads that ran them (disjoint slots of
    /// memory of its own: no Swift array is mutated from two threads).
    final class Record: @unchecked Sendable {
        let count: Int
        let runs, threads, processCPUs, teamFree: UnsafeMutablePointer<Int>
        let pause: UInt32
        init(count: Int, pause: UInt32 = 0) {
            self.count = count
            func slots() -> UnsafeMutablePointer<Int> {
                let p = UnsafeMutablePointer<Int>.allocate(capacity: max(1, count))
                p.initialize(repeating: 0, count: max(1, count))
                return p
            }
            (runs, threads, processCPUs, teamFree) = (slots(), slots(), slots(), slots())
            self.pause = pause
        }
        deinit { for p in [runs, threads, processCPUs, teamFree] { p.deallocate() } }
        func list(_ p: UnsafeMutablePointer<Int>) -> [Int] { Array(UnsafeBufferPointer(start: p, count: count)) }
    }

    static let body: nr_team_body = { context, index in
        let record = Unmanaged<Record>.fromOpaque(context!).takeUnretainedValue()
        let i = Int(index)
        record.threads[i] = Int(bitPattern: UInt(pthread_self()))
        record.processCPUs[i] = Int(nr_team_thread_has_process_cpus())
        record.teamFree[i] = Int(nr_team_free())
        if record.pause > 0 { usleep(record.pause) }
        // Counted last: a caller that returned before its helpers' iterations ended would see
        // some not yet counted.
        record.runs[i] += 1
    }

    /// nr_team_run until the team takes the job (other tests may hold it: an in-process suite run
    /// holds it for its whole run).
    static func runOnTeam(_ record: Record, start: Int, count: Int, workers: Int) -> Bool {
        let context = Unmanaged.passUnretained(record).toOpaque()
        for _ in 0..<60_000 {
            if nr_team_run(Int64(start), Int64(count), Int32(workers), body, context) != 0 { return true }
            usleep(1_000)
        }
        return false
    }

    #if os(Linux)
    @Test("every index from the start on runs exactly once, on the caller and helpers",
          arguments: [(0, 0, 2), (0, 1, 2), (0, 2, 2), (3, 3, 2), (2, 7, 3), (0, 100, 2), (1, 1000, 8), (0, 300, 200)])
    func everyIndexOnce(_ job: (start: Int, count: Int, workers: Int)) {
        let record = Record(count: job.count)
        #expect(Self.runOnTeam(record, start: job.start, count: job.count, workers: job.workers))
        #expect(record.list(record.runs) == (0..<job.count).map { $0 < job.start ? 0 : 1 })
        // Inside a job the team is taken: a nested job goes elsewhere.
        #expect(record.list(record.teamFree)[job.start..<job.count].allSatisfy { $0 == 0 })
    }

    @Test("helpers are made on the first job, share its work, and run on all the process's CPUs")
    func helpersShareWork() {
        // 50 iterations of 2 ms: the helper has 100 ms to join however the machine schedules it.
        let record = Record(count: 50, pause: 2_000)
        #expect(Self.runOnTeam(record, start: 0, count: 50, workers: 2))
        #expect(record.list(record.runs) == [Int](repeating: 1, count: 50))
        let cpus = Int(nr_team_process_cpus())
        if cpus >= 2 {
            #expect(nr_team_helpers() >= 1)
            #expect(Set(record.list(record.threads)).count >= 2, "the caller ran every iteration")
        }
        // Never more helpers than the process has CPUs besides the caller's, whatever was asked
        // (the case of 200 workers above included).
        #expect(cpus < 0 || nr_team_helpers() <= max(0, cpus - 1), "\(nr_team_helpers()) helpers for \(cpus) CPUs")
        // The placement hint (another CPU than the creator's) is dropped before any work.
        #expect(record.list(record.processCPUs).allSatisfy { $0 == 1 || $0 == -1 }, "\(record.list(record.processCPUs))")
    }

    @Test("after a rest (helpers asleep rather than spinning) the next job wakes them and shares its work")
    func restThenWork() {
        #expect(Self.runOnTeam(Record(count: 4), start: 0, count: 4, workers: 2))
        Parallel.rest()
        usleep(20_000)
        let record = Record(count: 50, pause: 2_000)
        #expect(Self.runOnTeam(record, start: 0, count: 50, workers: 2))
        #expect(record.list(record.runs) == [Int](repeating: 1, count: 50))
        if nr_team_process_cpus() >= 2 {
            #expect(Set(record.list(record.threads)).count >= 2, "no helper woke for the job")
        }
    }

    @Test("thousands of tiny jobs back to back: every index exactly once, on the team or not")
    func manyTinyJobs() {
        var onTeam = 0
        for job in 0..<20_000 {
            let count = 1 + job % 9, workers = 2 + job % 3
            let record = Record(count: count)
            let context = Unmanaged.passUnretained(record).toOpaque()
            if nr_team_run(0, Int64(count), Int32(workers), Self.body, context) != 0 {
                onTeam += 1
            } else {
                for i in 0..<count { Self.body(context, Int64(i)) }   // taken by another test: run here
            }
            if record.list(record.runs) != [Int](repeating: 1, count: count) {
                Issue.record("job \(job): \(record.list(record.runs))")
                return
            }
        }
        #expect(onTeam > 0)
        // And jobs with the default threshold while the helpers still spin (no first band alone).
        for count in [2, 5, 64] {
            var seen = [Int](repeating: 0, count: count)
            seen.withUnsafeMutableBufferPointer { b in
                let out = UncheckedSendable(b.baseAddress!)
                Parallel.forEachAdaptive(count, workers: 2) { i in out.value[i] += 1 }
            }
            #expect(seen == [Int](repeating: 1, count: count))
        }
    }

    @Test("workers below two: the team takes nothing and runs nothing")
    func tooFewWorkers() {
        let record = Record(count: 4)
        let context = Unmanaged.passUnretained(record).toOpaque()
        #expect(nr_team_run(0, 4, 1, Self.body, context) == 0)
        #expect(nr_team_run(0, 4, 0, Self.body, context) == 0)
        #expect(record.list(record.runs) == [0, 0, 0, 0])
    }
    #endif

    @Test("nested and concurrent Parallel calls: every index once, whether on the team or not")
    func nestedAndConcurrent() {
        let outer = 6, inner = 40
        let cells = UnsafeMutablePointer<Int>.allocate(capacity: 4 * outer * inner)
        cells.initialize(repeating: 0, count: 4 * outer * inner)
        defer { cells.deallocate() }
        let shared = UncheckedSendable(cells)
        // Four threads at once, each an outer job whose iterations run inner jobs.
        DispatchQueue.concurrentPerform(iterations: 4) { caller in
            Parallel.forEachInOrder(outer, workers: 3) { o in
                Parallel.forEach(inner, workers: 2) { i in shared.value[(caller * outer + o) * inner + i] += 1 }
            }
        }
        #expect(UnsafeBufferPointer(start: cells, count: 4 * outer * inner).allSatisfy { $0 == 1 })
        // And adaptive jobs forced onto threads.
        var seen = [Int](repeating: 0, count: 64)
        seen.withUnsafeMutableBufferPointer { b in
            let out = UncheckedSendable(b.baseAddress!)
            Parallel.forEachAdaptive(64, workers: 2, threshold: .zero) { i in out.value[i] += 1 }
        }
        #expect(seen == [Int](repeating: 1, count: 64))
    }
}
