import CPNG
import Dispatch

/// Runs `body(0..<count)` across cores and returns when all are done. The caller guarantees
/// that iterations touch disjoint memory; results must be merged in index order afterwards so
/// that nothing depends on scheduling.
public enum Parallel {
    public static func forEach(_ count: Int, _ body: (Int) -> Void) {
        forEach(count, workers: count, body)
    }

    /// As `forEach`, on at most `workers` threads. On NavReel's thread team (`onTeam`) when it is
    /// free, the iterations handed out one at a time; else libdispatch's threads, worker w running
    /// iterations w, w + workers, ...
    public static func forEach(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        let workers = max(1, min(workers, count))
        if workers == 1 {
            for i in 0..<count { body(i) }
            return
        }
        if onTeam(0, count, workers: workers, body) { return }
        withoutActuallyEscaping(body) { escaping in
            let box = UncheckedSendable(escaping)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var i = w
                while i < count {
                    box.value(i)
                    i += workers
                }
            }
        }
    }
}

/// Carries a value across a concurrency boundary whose safety the caller has established.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Parallel {
    /// Runs `body(0..<count)` on the calling thread, and on up to `workers - 1` more threads only
    /// when the work is worth them: the first iteration is timed, and helpers start only if the
    /// rest would take more than `threshold` on one thread (`adaptiveThreshold` when nil).
    /// Iterations are handed out one at a time from a shared counter, so a thread the machine
    /// descheduled holds up at most one iteration (fixed striding made two jobs slower than one
    /// on a busy machine). The caller merges the results in index order, so nothing depends on
    /// how many threads ran or which ran what.
    public static func forEachAdaptive(_ count: Int, workers: Int, threshold: Duration? = nil,
                                       _ body: (Int) -> Void) {
        guard count > 0 else { return }
        // The team's helpers are spinning from the job before (a diff's decodes before its
        // comparison, its comparison before the encoding): they join within a microsecond, so
        // nothing is gained by running the first iteration alone to decide.
        if threshold == nil && workers > 1 && count > 1 && nr_team_free() != 0 && nr_team_awake() > 0 {
            forEachInOrder(count, workers: workers, body)
            return
        }
        let threshold = threshold ?? adaptiveThreshold
        let clock = ContinuousClock()
        let start = clock.now
        body(0)
        let first = clock.now - start
        let workers = max(1, min(workers, count - 1))
        if workers == 1 || first * (count - 1) < threshold {
            for i in 1..<count { body(i) }
            return
        }
        forEachInOrder(count, workers: workers, from: 1, body)
    }

    /// Runs `body(start..<count)` on up to `workers` threads, handing the indices out in order,
    /// one at a time, from a shared counter: at any moment the iterations begun are a prefix of
    /// the range (the suite relies on it to bound what it holds), and a descheduled thread holds
    /// up at most one iteration.
    public static func forEachInOrder(_ count: Int, workers: Int, from start: Int = 0, _ body: (Int) -> Void) {
        guard start < count else { return }
        let workers = max(1, min(workers, count - start))
        if workers == 1 {
            for i in start..<count { body(i) }
            return
        }
        if onTeam(start, count, workers: workers, body) { return }
        let next = SharedCounter(start)
        withoutActuallyEscaping(body) { escaping in
            let box = UncheckedSendable(escaping)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let i = next.take()
                    if i >= count { return }
                    box.value(i)
                }
            }
        }
    }
}

extension Parallel {
    /// How much work after the first iteration starts helpers in `forEachAdaptive` by default:
    /// 0.8 ms when NavReel's thread team is free (its helpers join a job within microseconds
    /// when they are spinning, tens when asleep), 4 ms when the work would go to libdispatch,
    /// whose threads cost more than a few milliseconds of work gains (a new one often waited
    /// 1.5-3 ms on the caller's CPU, team.h). A fully different pair of 1x frames (20 bands of
    /// 0.15-0.2 ms) stayed on one thread under 4 ms.
    public static var adaptiveThreshold: Duration {
        nr_team_free() != 0 ? .microseconds(800) : .milliseconds(4)
    }

    /// Tells NavReel's thread team that no parallel work follows soon (a one-shot command has
    /// done its last): its idle helpers sleep at once rather than spin for a millisecond, a
    /// core's worth of CPU that `navreel diff` run many times side by side would take from the
    /// others. Results never depend on it.
    public static func rest() { nr_team_rest() }

    /// Runs `body(start..<count)` on NavReel's thread team (CPNG's team.h: helpers that start on
    /// another CPU than their creator's and spin a millisecond between jobs, so that short jobs
    /// one after another, as a `navreel diff` runs them, find both cores; libdispatch's threads
    /// were often put on the caller's CPU and waited there 1.5-3 ms), indices handed out in
    /// order. False, having run nothing, when the team is taken (a job running on it, or this
    /// thread is one of its helpers: nested jobs go to libdispatch) or the platform has none.
    static func onTeam(_ start: Int, _ count: Int, workers: Int, _ body: (Int) -> Void) -> Bool {
        withoutActuallyEscaping(body) { escaping in
            var closure = escaping
            return withUnsafeMutablePointer(to: &closure) { pointer in
                nr_team_run(Int64(start), Int64(count), Int32(clamping: workers), { context, index in
                    context!.assumingMemoryBound(to: ((Int) -> Void).self).pointee(Int(index))
                }, pointer) != 0
            }
        }
    }
}

/// A counter handed out under a mutex (a few dozen takes per comparison: the lock costs nothing
/// that matters, and it needs no platform newer than the package's).
final class SharedCounter: @unchecked Sendable {
    private var value: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ start: Int) {
        value = start
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func take() -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let v = value
        value += 1
        return v
    }
}

extension Array where Element == UInt8 {
    /// `count` bytes that the caller's `fill` initialises every one of, in memory asked for in
    /// huge pages when large (no zeroing pass first: a 37 MP diff's indices are 37 MB).
    package static func filledLarge(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { nr_advise_huge_pages(base, count) }
            fill(buffer)
            initialized = count
        }
    }
}
