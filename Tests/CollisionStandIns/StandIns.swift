// Stand-ins named like SwiftUI's and CryptoKit's types, in their own module as SwiftUI is: a file
// importing this module and NavReelTesting must be able to use these names unqualified. (A test
// module's own types would hide imported ones and prove nothing.)
public struct Image: Equatable { public init() {} }
public struct Color: Equatable { public init() {} }
public struct Path: Equatable { public init() {} }
public struct Canvas: Equatable { public init() {} }
public struct Gradient: Equatable { public init() {} }
public struct Material: Equatable { public init() {} }
public struct SHA256: Equatable { public init() {} }
