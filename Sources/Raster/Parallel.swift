import Dispatch

/// Runs `body(0..<count)` across cores and returns when all are done. The caller guarantees
/// that iterations touch disjoint memory; results must be merged in index order afterwards so
/// that nothing depends on scheduling.
public enum Parallel {
    public static func forEach(_ count: Int, _ body: (Int) -> Void) {
        forEach(count, workers: count, body)
    }

    /// As `forEach`, on at most `workers` threads; worker w runs iterations w, w + workers, ...
    public static func forEach(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        let workers = max(1, min(workers, count))
        if workers == 1 {
            for i in 0..<count { body(i) }
            return
        }
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
