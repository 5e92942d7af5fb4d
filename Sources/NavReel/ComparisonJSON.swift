import Compare
import Foundation
import Navigation
import Raster
import Scenario

extension Comparison {
    /// The result object of CLI.md (`width`, `height`, `mismatched`, `forgiven`, `maxChannelDelta`,
    /// `passed`), followed by NavReel's additions.
    public var json: [(String, JSON)] {
        guard case .object(let pairs)? = try? JSONTreeEncoder.encode(ComparisonDocument(self)) else { return [] }
        return pairs
    }
}
