import Dispatch

/// Runs `body(0..<count)` across cores and returns when all are done. The caller guarantees
/// that iterations touch disjoint memory; results must be merged in index order afterwards so
/// that nothing depends on scheduling.
public enum Parallel {
    public static func forEach(_ count: Int, _ body: (Int) -> Void) {
        if count <= 1 {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { escaping in
            let box = UncheckedSendable(escaping)
            DispatchQueue.concurrentPerform(iterations: count) { box.value($0) }
        }
    }
}

/// Carries a value across a concurrency boundary whose safety the caller has established.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
