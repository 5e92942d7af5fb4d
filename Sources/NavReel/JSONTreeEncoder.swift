import Foundation

/// Encodes a `Codable` value into NavReel's ordered `JSON` value: keys in the order the type
/// encodes them (declaration order for synthesized conformances), nil optionals left out, so that
/// files written through `Codable` types keep NavReel's stable, diffable layout and its HTML-safe
/// escaping.
public enum JSONTreeEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> JSON {
        let root = TreeNode()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        return root.json
    }
}

/// A JSON value under construction: containers are filled by reference while encoding.
private final class TreeNode {
    enum Kind { case unset, value(JSON), object([(String, TreeNode)]), array([TreeNode]) }
    var kind = Kind.unset

    var json: JSON {
        switch kind {
        case .unset: return .null
        case .value(let v): return v
        case .object(let pairs): return .object(pairs.map { ($0.0, $0.1.json) })
        case .array(let items): return .array(items.map(\.json))
        }
    }

    func makeObject() { if case .object = kind {} else { kind = .object([]) } }
    func makeArray() { if case .array = kind {} else { kind = .array([]) } }

    func child(forKey key: String) -> TreeNode {
        makeObject()
        guard case .object(var pairs) = kind else { fatalError("unreachable") }
        if let existing = pairs.first(where: { $0.0 == key }) { return existing.1 }
        let node = TreeNode()
        pairs.append((key, node))
        kind = .object(pairs)
        return node
    }

    func appendChild() -> TreeNode {
        makeArray()
        guard case .array(var items) = kind else { fatalError("unreachable") }
        let node = TreeNode()
        items.append(node)
        kind = .array(items)
        return node
    }

    var count: Int { if case .array(let items) = kind { return items.count } else { return 0 } }

    /// Numbers and strings become JSON values directly; anything else encodes itself.
    func set<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
        switch value {
        case let v as String: kind = .value(.string(v))
        case let v as Bool: kind = .value(.bool(v))
        case let v as Int: kind = .value(.int(v))
        case let v as UInt8: kind = .value(.int(Int(v)))
        case let v as Double: kind = .value(.double(v))
        case let v as JSON: kind = .value(v)
        default: try value.encode(to: TreeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct TreeEncoder: Encoder {
    let node: TreeNode
    var codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer {
        node.makeArray()
        return Unkeyed(node: node, codingPath: codingPath)
    }
    func singleValueContainer() -> SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TreeNode
    var codingPath: [CodingKey]
    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key])
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
        let child = node.child(forKey: key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.makeArray()
        return Unkeyed(node: child, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> Encoder { TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder { TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]) }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ i: Int) { intValue = i }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: TreeNode
    var codingPath: [CodingKey]
    var count: Int { node.count }
    mutating func encodeNil() throws { node.appendChild().kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try node.appendChild().set(value, codingPath: path)
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) -> KeyedEncodingContainer<N> {
        let child = node.appendChild()
        child.makeObject()
        return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.makeArray()
        return Unkeyed(node: child, codingPath: codingPath)
    }
    mutating func superEncoder() -> Encoder { TreeEncoder(node: node.appendChild(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let node: TreeNode
    var codingPath: [CodingKey]
    mutating func encodeNil() throws { node.kind = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.set(value, codingPath: codingPath) }
}

/// `JSON` values nest inside `Codable` documents as themselves.
extension JSON: Encodable {
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i): var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d): var c = encoder.singleValueContainer(); try c.encode(d)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let pairs):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in pairs { try c.encode(v, forKey: AnyKey(k)) }
        }
    }
}

/// A coding key made from any string (status names, extras).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
