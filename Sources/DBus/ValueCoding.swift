// Encoding `Value`s into libdbus messages and decoding them back, through dbus_message_iter_*.
import CDBus
import Glibc

/// The bridge between `Value` and a `DBusMessage` body. Everything is checked before libdbus
/// sees it, because libdbus aborts the process on invalid input.
enum ValueCoding {
    /// Whether `signature` is exactly one basic type code (a valid dictionary key).
    private static func isBasicCode(_ signature: Signature) -> Bool {
        var bytes = signature.rawValue.utf8.makeIterator()
        guard let code = bytes.next(), bytes.next() == nil else { return false }
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"),
            UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "s"),
            UInt8(ascii: "o"), UInt8(ascii: "g"), UInt8(ascii: "h"):
            return true
        default:
            return false
        }
    }

    /// Throws `InvalidArgs` unless `bytes` are UTF-8 without NULs (`dbus_validate_utf8`).
    static func checkUTF8(_ bytes: [UInt8]) throws(DBusError) {
        if bytes.contains(0) { throw .invalidArgs("string contains a NUL byte") }
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        let ok = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_validate_utf8($0.baseAddress, &error) }
        }
        if ok == 0 { throw .invalidArgs("string is not valid UTF-8") }
    }

    /// Checks that `values` can be encoded: consistent element types, basic dictionary keys,
    /// non-empty structs, strings without NULs, signature length and nesting within limits.
    static func check(_ values: [Value]) throws(DBusError) {
        for value in values {
            try checkLimits(value)
            try checkTree(value)
        }
    }

    /// Catches nesting deeper than 32 and signatures longer than 255 bytes.
    private static func checkLimits(_ value: Value) throws(DBusError) {
        let text = value.signatureText
        let ok = text.withCString { dbus_signature_validate_single($0, nil) } != 0
        if !ok { throw .invalidArgs("value of type \(text.prefix(64)) exceeds D-Bus signature limits") }
    }

    private static func checkTree(_ value: Value) throws(DBusError) {
        switch value {
        case .string(let s):
            try checkString(s)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double,
            .objectPath, .signature, .unixFD:
            break
        case .array(let element, let items):
            try checkArray(element, items)
            for item in items { try checkTree(item) }
        case .dictionary(let key, let valueSignature, let entries):
            try checkDictionary(key, valueSignature, entries)
            for entry in entries {
                try checkTree(entry.key)
                try checkTree(entry.value)
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArgs("empty struct") }
            for field in fields { try checkTree(field) }
        case .variant(let inner):
            try checkTree(inner)
        }
    }

    private static func checkString(_ s: String) throws(DBusError) {
        if s.utf8.contains(0) { throw .invalidArgs("string contains a NUL byte") }
    }

    /// The array's own rule: a single complete element type that every item has.
    private static func checkArray(_ element: Signature, _ items: [Value]) throws(DBusError) {
        try checkElement(element)
        for item in items { try checkItem(item, of: element) }
    }

    private static func checkElement(_ element: Signature) throws(DBusError) {
        guard element.isSingleCompleteType else {
            throw .invalidArgs("array element signature '\(element)' is not a single complete type")
        }
    }

    private static func checkItem(_ item: Value, of element: Signature) throws(DBusError) {
        if !item.hasSignature(element.rawValue) {
            throw .invalidArgs("array of '\(element)' holds an item of type '\(item.signatureText)'")
        }
    }

    /// The dictionary's own rule: a basic key type, a single complete value type, entries of those types.
    private static func checkDictionary(_ key: Signature, _ valueSignature: Signature, _ entries: [DictEntry])
        throws(DBusError)
    {
        try checkDictionaryTypes(key, valueSignature)
        for entry in entries { try checkEntry(entry, key, valueSignature) }
    }

    private static func checkDictionaryTypes(_ key: Signature, _ valueSignature: Signature) throws(DBusError) {
        guard isBasicCode(key) else {
            throw .invalidArgs("dictionary key signature '\(key)' is not a basic type")
        }
        guard valueSignature.isSingleCompleteType else {
            throw .invalidArgs("dictionary value signature '\(valueSignature)' is not a single complete type")
        }
    }

    private static func checkEntry(_ entry: DictEntry, _ key: Signature, _ valueSignature: Signature)
        throws(DBusError)
    {
        if !entry.key.hasSignature(key.rawValue) || !entry.value.hasSignature(valueSignature.rawValue) {
            throw .invalidArgs(
                "dictionary a{\(key)\(valueSignature)} holds an entry of types "
                    + "'\(entry.key.signatureText)' and '\(entry.value.signatureText)'")
        }
    }

    // MARK: Encoding

    /// Checks `values` and appends them to the body of `message`.
    ///
    /// The checks run as each value is appended (an item is checked before it goes in, a failing
    /// container is abandoned), so a body is walked once; on a throw the caller drops the
    /// half-built message. Hot path (every reply): no `String` is built per node, basic types
    /// use static signatures, and a variant of a basic type skips libdbus's signature validator.
    /// Returns the body's marshalled length (`WireLength`), counted on the way, for callers
    /// that keep the message and account for its size.
    @discardableResult
    static func append(_ values: [Value], to message: OpaquePointer) throws(DBusError) -> Int {
        var iter = DBusMessageIter()
        var length = WireLength()
        try withUnsafeMutablePointer(to: &iter) { iter throws(DBusError) in
            dbus_message_iter_init_append(message, iter)
            for value in values {
                if !value.isBasic { try checkLimits(value) }
                try append(value, to: iter, &length)
            }
        }
        return length.bytes
    }

    private static func appendBasic<T: BitwiseCopyable>(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ value: T, _ length: inout WireLength
    ) throws(DBusError) {
        length.fixed(MemoryLayout<T>.size)
        var copy = value
        if dbus_message_iter_append_basic(iter, code, &copy) == 0 {
            throw .failed("libdbus could not append a value of type \(code)")
        }
    }

    /// Appends a string-like value. `checkingNUL`: throw `InvalidArgs` when the text holds a NUL
    /// (found as a C length shorter than the UTF-8 length: `strlen` instead of a byte-wise scan).
    /// A Swift `String` is always valid UTF-8, so NUL is the only thing left for libdbus to abort on.
    private static func appendString(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ text: String, _ wire: inout WireLength,
        checkingNUL: Bool = false
    ) throws(DBusError) {
        let length = text.utf8.count
        if code == CDBUS_TYPE_SIGNATURE { wire.signature(length) } else { wire.string(length) }
        let result: dbus_bool_t? = text.withCString { cString in
            if checkingNUL && strlen(cString) != length { return nil }
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(iter, code, &pointer)
        }
        guard let result else { throw .invalidArgs("string contains a NUL byte") }
        if result == 0 { throw .failed("libdbus could not append a string") }
    }

    /// Opens a container, runs `body` on the sub-iterator (on the stack), and closes it
    /// (abandons it on error). `signature` is NUL-terminated or nil.
    @inline(__always)
    private static func withContainer(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ signature: UnsafePointer<CChar>?,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void
    ) throws(DBusError) {
        var subIter = DBusMessageIter()
        try withUnsafeMutablePointer(to: &subIter) { sub throws(DBusError) in
            if dbus_message_iter_open_container(iter, code, signature, sub) == 0 {
                throw .failed("libdbus could not open a container")
            }
            do throws(DBusError) {
                try body(sub)
            } catch {
                dbus_message_iter_abandon_container(iter, sub)
                throw error
            }
            if dbus_message_iter_close_container(iter, sub) == 0 { throw .failed("libdbus could not close a container") }
        }
    }

    /// `withContainer` with a signature given as a Swift string.
    private static func withContainer(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ signature: String,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void
    ) throws(DBusError) {
        // `withCString` rethrows untyped errors: carry the typed one out in a `Result`.
        let result = signature.withCString { signature in
            Result { () throws(DBusError) in try withContainer(iter, code, signature, body) }
        }
        try result.get()
    }

    /// Appends `value` (checked on the way) and counts its marshalled bytes in `length`.
    private static func append(
        _ value: Value, to iter: UnsafeMutablePointer<DBusMessageIter>, _ length: inout WireLength
    ) throws(DBusError) {
        switch value {
        case .byte(let v): try appendBasic(iter, CDBUS_TYPE_BYTE, v, &length)
        case .boolean(let v): try appendBasic(iter, CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0), &length)
        case .int16(let v): try appendBasic(iter, CDBUS_TYPE_INT16, v, &length)
        case .uint16(let v): try appendBasic(iter, CDBUS_TYPE_UINT16, v, &length)
        case .int32(let v): try appendBasic(iter, CDBUS_TYPE_INT32, v, &length)
        case .uint32(let v): try appendBasic(iter, CDBUS_TYPE_UINT32, v, &length)
        case .int64(let v): try appendBasic(iter, CDBUS_TYPE_INT64, v, &length)
        case .uint64(let v): try appendBasic(iter, CDBUS_TYPE_UINT64, v, &length)
        case .double(let v): try appendBasic(iter, CDBUS_TYPE_DOUBLE, v, &length)
        case .unixFD(let v): try withExtendedLifetime(v) { () throws(DBusError) in try appendBasic(iter, CDBUS_TYPE_UNIX_FD, v.rawValue, &length) }
        case .string(let v): try appendString(iter, CDBUS_TYPE_STRING, v, &length, checkingNUL: true)
        case .objectPath(let v): try appendString(iter, CDBUS_TYPE_OBJECT_PATH, v.rawValue, &length)
        case .signature(let v): try appendString(iter, CDBUS_TYPE_SIGNATURE, v.rawValue, &length)
        case .array(let element, let items):
            try checkElement(element)
            length.arrayStart(alignment: WireLength.alignment(of: element))
            try withContainer(iter, CDBUS_TYPE_ARRAY, element.rawValue) { sub throws(DBusError) in
                for item in items {
                    try checkItem(item, of: element)
                    try append(item, to: sub, &length)
                }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try checkDictionaryTypes(key, valueSignature)
            length.arrayStart(alignment: 8)  // dictionary entries are structs
            let body = { (sub: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) in
                for entry in entries {
                    try checkEntry(entry, key, valueSignature)
                    length.structStart()
                    try withContainer(sub, CDBUS_TYPE_DICT_ENTRY, nil) { pair throws(DBusError) in
                        try append(entry.key, to: pair, &length)
                        try append(entry.value, to: pair, &length)
                    }
                }
            }
            if key.rawValue == "s" && valueSignature.rawValue == "v" {
                try withContainer(iter, CDBUS_TYPE_ARRAY, "{sv}", body)
            } else {
                try withContainer(iter, CDBUS_TYPE_ARRAY, "{" + key.rawValue + valueSignature.rawValue + "}", body)
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArgs("empty struct") }
            length.structStart()
            try withContainer(iter, CDBUS_TYPE_STRUCT, nil) { sub throws(DBusError) in
                for field in fields { try append(field, to: sub, &length) }
            }
        case .variant(let inner):
            if let code = inner.basicTypeCode {
                // A single basic type code is always a valid signature.
                length.signature(1)
                let signature = UnsafeRawPointer(code.utf8Start).assumingMemoryBound(to: CChar.self)
                try withContainer(iter, CDBUS_TYPE_VARIANT, signature) { sub throws(DBusError) in
                    try append(inner, to: sub, &length)
                }
            } else {
                // libdbus aborts on an invalid contained signature: check it before opening.
                try checkLimits(inner)
                let signature = inner.signatureText
                length.signature(signature.utf8.count)
                try withContainer(iter, CDBUS_TYPE_VARIANT, signature) { sub throws(DBusError) in
                    try append(inner, to: sub, &length)
                }
            }
        }
    }

    // MARK: Decoding

    /// Descriptors received from one message at most; further `h` values decode as
    /// `UnixFD.absent` (-1). Each `h` read is a new descriptor (libdbus duplicates the message's
    /// own on every read), and a peer may repeat one index any number of times: unbounded, one
    /// message could use up every descriptor the process may open, if only while it is handled.
    static let maxReceivedDescriptors = 16

    /// The whole body of `message`. libdbus has validated incoming messages, so this cannot fail;
    /// received descriptors are owned by the returned values (`UnixFD`), at most
    /// `maxReceivedDescriptors` of them.
    static func decode(_ message: OpaquePointer) -> [Value] {
        var iter = DBusMessageIter()
        var descriptorsLeft = maxReceivedDescriptors
        return withUnsafeMutablePointer(to: &iter) { iter in
            guard dbus_message_iter_init(message, iter) != 0 else { return [] }
            return readAll(iter, &descriptorsLeft)
        }
    }

    private static func readAll(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ descriptorsLeft: inout Int) -> [Value] {
        var values: [Value] = []
        while true {
            let code = dbus_message_iter_get_arg_type(iter)
            if code == CDBUS_TYPE_INVALID { break }
            values.append(read(iter, code, &descriptorsLeft))
            dbus_message_iter_next(iter)
        }
        return values
    }

    /// A received `h`: its own duplicate while the message's budget lasts, none after.
    private static func descriptor(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ descriptorsLeft: inout Int) -> UnixFD {
        guard descriptorsLeft > 0 else { return .absent }
        descriptorsLeft -= 1
        return UnixFD(owning: basic(iter, Int32(-1)))
    }

    private static func basic<T: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(iter, &value)
        return value
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func currentSignature(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        guard let raw = dbus_message_iter_get_signature(iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    private static func withSub<R>(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ body: (UnsafeMutablePointer<DBusMessageIter>) -> R
    ) -> R {
        // On the stack: one per container of every incoming call.
        var subIter = DBusMessageIter()
        return withUnsafeMutablePointer(to: &subIter) { sub in
            dbus_message_iter_recurse(iter, sub)
            return body(sub)
        }
    }

    private static func read(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ descriptorsLeft: inout Int
    ) -> Value {
        switch code {
        case CDBUS_TYPE_BYTE: return .byte(basic(iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(descriptor(iter, &descriptorsLeft))
        case CDBUS_TYPE_STRING: return .string(text(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(unchecked: text(iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(Signature(unchecked: text(iter)))
        case CDBUS_TYPE_VARIANT:
            return .variant(withSub(iter) { sub in read(sub, dbus_message_iter_get_arg_type(sub), &descriptorsLeft) })
        case CDBUS_TYPE_STRUCT:
            return .structure(withSub(iter) { readAll($0, &descriptorsLeft) })
        case CDBUS_TYPE_ARRAY:
            let signature = currentSignature(iter)  // "a…"
            let element = String(signature.dropFirst())
            if element.hasPrefix("{") {
                let key = String(element.dropFirst().prefix(1))
                let value = String(element.dropFirst(2).dropLast())
                let entries = withSub(iter) { sub in
                    var entries: [DictEntry] = []
                    while dbus_message_iter_get_arg_type(sub) == CDBUS_TYPE_DICT_ENTRY {
                        let pair = withSub(sub) { readAll($0, &descriptorsLeft) }
                        if pair.count == 2 { entries.append(DictEntry(key: pair[0], value: pair[1])) }
                        dbus_message_iter_next(sub)
                    }
                    return entries
                }
                return .dictionary(key: Signature(unchecked: key), value: Signature(unchecked: value), entries)
            }
            return .array(element: Signature(unchecked: element), withSub(iter) { readAll($0, &descriptorsLeft) })
        default:
            preconditionFailure("libdbus returned unknown type code \(code)")
        }
    }
}
