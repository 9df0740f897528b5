import Foundation

/// Turns titles and person names into file and folder names that every file system and
/// cloud drive the archive may end up on accepts: ext4, APFS, NTFS, exFAT, OneDrive, Dropbox,
/// Google Drive.
///
/// The rules, in order:
/// 1. Unicode NFC (macOS and Linux would otherwise store `é` in two different ways).
/// 2. Path separators (`/`, `\`), control characters (C0 with NUL and tab, U+007F, C1), the
///    characters Windows refuses (`< > : " | ? *`) and every other whitespace become a space;
///    invisible direction marks (which can disguise an extension) and U+FEFF are removed.
/// 3. Runs of spaces collapse to one; leading dots and spaces and trailing dots and spaces go
///    (scalar by scalar), and so do combining marks with nothing to sit on (at the start or
///    after a space), which would otherwise merge with a `/` or space into one character.
/// 4. A character over ``maximumCharacterBytes`` (a "zalgo" pile of combining marks) is cut
///    down to its base; the result is cut to the byte budget at a `Character` boundary, so an
///    emoji or a letter with its accents is never split.
/// 5. Windows device names (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, also
///    `COM¹`…, `CONIN$`, `CONOUT$`), alone or before an extension, get a `_` (`CON_`, `con_.txt`).
/// 6. An empty result (also from `.` and `..`) becomes the fallback, ``fallback`` by default.
public enum FileName {
    /// The name of a document whose title has nothing left after cleaning.
    public static let fallback = "Uten tittel"

    /// The longest file or folder name, in UTF-8 bytes, that ext4, APFS and NTFS accept.
    public static let maximumComponentBytes = 255

    /// The smallest budget ``sanitized(_:maxBytes:fallback:)`` works with; smaller values are
    /// raised to it so the fallback and a device-name suffix always fit.
    public static let minimumBudget = 16

    /// A single character longer than this (in UTF-8 bytes) is reduced to its first scalar.
    /// The longest emoji sequences are about 35 bytes; anything past 64 is a pile of marks.
    public static let maximumCharacterBytes = 64

    /// `name` cleaned to a safe file or folder name of at most `maxBytes` UTF-8 bytes.
    ///
    /// Callers that add an extension or a suffix pass their budget minus those
    /// (``ArchiveLayout`` passes 255 minus the longest tail, such as ` - side 12.jpeg`,
    /// and the room for a ` (9999)` collision suffix).
    public static func sanitized(_ name: String, maxBytes: Int = 200, fallback: String = FileName.fallback) -> String {
        let budget = max(maxBytes, minimumBudget)

        // 1–3: scalar rules, with whitespace collapsed on the way.
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch rule(for: scalar) {
            case .keep:
                // A mark with nothing to sit on (at the start, or after what became a space)
                // would merge with the `/` or space before it into one character: drop it.
                if (scalars.isEmpty || pendingSpace || scalars.last == " ") && attachesBackward(scalar) { continue }
                if pendingSpace && !scalars.isEmpty { scalars.append(" ") }
                pendingSpace = false
                scalars.append(scalar)
            case .space:
                pendingSpace = true
            case .remove:
                continue
            }
        }
        // Removing a scalar can bring a base and a mark together: compose again.
        var text = String(scalars).precomposedStringWithCanonicalMapping
        text = trimmingDotsAndSpaces(text)

        // 4: tame oversized characters, then cut to the budget.
        text = truncated(tamed(text), toBytes: budget)
        text = trimmingDotsAndSpaces(text)

        // 6: nothing left.
        if text.isEmpty || text == "." || text == ".." {
            if fallback == FileName.fallback { return truncated(FileName.fallback, toBytes: budget) }
            return sanitized(fallback, maxBytes: budget, fallback: FileName.fallback)
        }

        // 5: device names.
        if let stem = reservedStem(of: text) {
            let rest = text.dropFirst(stem.count)
            text = trimmingDotsAndSpaces(truncated(String(stem) + "_" + rest, toBytes: budget))
        }
        return text
    }

    /// True when `name` (a whole file name or its part before the first dot) is a Windows
    /// device name, compared without regard to case.
    public static func isReservedDeviceName(_ name: String) -> Bool {
        reservedStem(of: name) != nil
    }

    // MARK: - Rules

    private enum Rule { case keep, space, remove }

    /// Characters Windows, OneDrive and SMB shares refuse in a name.
    private static let windowsForbidden: Set<Unicode.Scalar> = ["<", ">", ":", "\"", "|", "?", "*"]

    private static func rule(for scalar: Unicode.Scalar) -> Rule {
        let value = scalar.value
        switch value {
        case 0x2F, 0x5C: return .space                        // / and \
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return .space     // C0 (NUL, tab, newline …), DEL, C1
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
            return .remove                                      // direction marks, zero-width space, BOM
        default: break
        }
        if windowsForbidden.contains(scalar) { return .space }
        if scalar.properties.isWhitespace { return .space }     // NBSP, U+2028, ideographic space …
        return .keep
    }

    /// Without leading and trailing dots and spaces, scalar by scalar (a dot under a combining
    /// mark is still a dot to Windows and to `ls`), nor marks left leading, nor a trailing
    /// scalar that would merge with what follows (a space, a dot and an extension).
    private static func trimmingDotsAndSpaces(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        var changed = true
        while changed {
            changed = false
            while let first = scalars.first, first == "." || first == " " || attachesBackward(first) {
                scalars.removeFirst()
                changed = true
            }
            while let last = scalars.last, last == "." || last == " " || attachesForward(last) {
                scalars.removeLast()
                changed = true
            }
        }
        return String(scalars)
    }

    /// True for a scalar that joins the character before it (combining marks, ZWJ, variation
    /// selectors, emoji modifiers …), by Swift's own grapheme rules.
    static func attachesBackward(_ scalar: Unicode.Scalar) -> Bool {
        var probe = "a"
        probe.unicodeScalars.append(scalar)
        return probe.count == 1
    }

    /// True for a scalar that joins the character after it (prepended concatenation marks).
    static func attachesForward(_ scalar: Unicode.Scalar) -> Bool {
        var probe = String.UnicodeScalarView()
        probe.append(scalar)
        probe.append("a")
        return String(probe).count == 1
    }

    /// Each character over ``maximumCharacterBytes`` replaced by its first scalar.
    private static func tamed(_ text: String) -> String {
        guard text.contains(where: { $0.utf8.count > maximumCharacterBytes }) else { return text }
        var result = ""
        for character in text {
            if character.utf8.count > maximumCharacterBytes, let first = character.unicodeScalars.first {
                result.unicodeScalars.append(first)
            } else {
                result.append(character)
            }
        }
        return result.precomposedStringWithCanonicalMapping
    }

    /// The longest prefix of whole characters within `limit` UTF-8 bytes (still NFC).
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        // A prefix at a character boundary is NFC in practice; compose again to be certain
        // and drop characters should composing ever change the length.
        var composed = result.precomposedStringWithCanonicalMapping
        while composed.utf8.count > limit, !composed.isEmpty {
            composed.removeLast()
            composed = composed.precomposedStringWithCanonicalMapping
        }
        return composed
    }

    private static let reservedNames: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
        for digit in ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"] {
            names.insert("COM" + digit)
            names.insert("LPT" + digit)
        }
        return names
    }()

    /// The part before the first dot when it is a device name (trailing spaces ignored).
    private static func reservedStem(of name: String) -> Substring? {
        let stem = name.prefix(while: { $0 != "." })
        var bare = stem
        while bare.last == " " { bare.removeLast() }
        guard bare.count <= 7, reservedNames.contains(bare.uppercased()) else { return nil }
        return bare
    }
}
