import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Splits scenarios over shards by frame count: longest-processing-time-first, the greedy rule
/// that keeps the largest shard within 4/3 of the best possible (Graham 1969, "Bounds on
/// multiprocessing timing anomalies"). Deterministic: depends only on names and frame counts.
public enum ShardPlan {
    public static func assign(_ items: [(scenario: Scenario, frames: Int)], shards: Int) -> [[Scenario]] {
        // Shards past the scenarios' count are empty: only as many are laid out (a count of
        // 10^11 allocated two arrays that size, an audit 2026-11-29).
        let n = max(1, min(shards, items.count))
        var load = [Int](repeating: 0, count: n)
        var out = [[Scenario]](repeating: [], count: n)
        for item in items.sorted(by: { ($0.frames, $1.scenario.name) > ($1.frames, $0.scenario.name) }) {
            let target = load.indices.min { (load[$0], $0) < (load[$1], $1) }!
            load[target] += item.frames
            out[target].append(item.scenario)
        }
        return out.map { $0.sorted { $0.name < $1.name } }
    }

    /// Shard `index` (1-based) of `shards`: empty past the scenarios' count.
    public static func assign(_ items: [(scenario: Scenario, frames: Int)], shards: Int, index: Int) -> [Scenario] {
        let all = assign(items, shards: shards)
        return index >= 1 && index <= all.count ? all[index - 1] : []
    }
}
