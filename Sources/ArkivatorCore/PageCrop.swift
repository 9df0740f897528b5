import Foundation

/// Where a page's sheet lies in the photo as taken, and how the page was turned: what filing
/// found (or the user set), so a page can be read again with corners moved by hand.
///
/// The corners are in pixels of the original's page as decoded (a phone photo already turned
/// upright by its EXIF orientation), top-left, top-right, bottom-right, bottom-left.
public struct PageCrop: Sendable, Equatable, Codable {
    /// Where the outline came from.
    public enum Source: String, Sendable, Codable {
        /// The sheet detector found it.
        case found
        /// No sheet was found (or the page was read as it came): the whole picture.
        case whole
        /// Set by hand (`recrop`, the web page's corner handles).
        case user
    }

    /// x, y of each corner: top-left, top-right, bottom-right, bottom-left.
    public var corners: [[Double]]
    /// Quarter turns clockwise applied after the sheet was flattened (0…3).
    public var quarterTurns: Int
    /// The decoded page's size in pixels (the corners' frame).
    public var width: Int
    public var height: Int
    public var source: Source

    public init(corners: [[Double]], quarterTurns: Int, width: Int, height: Int, source: Source) {
        self.corners = corners
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.width = width
        self.height = height
        self.source = source
    }

    /// The whole picture, turned `quarterTurns`.
    public static func whole(width: Int, height: Int, quarterTurns: Int = 0, source: Source = .whole) -> PageCrop {
        let w = Double(width), h = Double(height)
        return PageCrop(corners: [[0, 0], [w, 0], [w, h], [0, h]], quarterTurns: quarterTurns, width: width, height: height,
                        source: source)
    }

    /// True when the corners are the picture's own corners (nothing is cut away).
    public var isWhole: Bool {
        let w = Double(width), h = Double(height)
        let expected: [[Double]] = [[0, 0], [w, 0], [w, h], [0, h]]
        return zip(corners, expected).allSatisfy { abs($0[0] - $1[0]) < 0.5 && abs($0[1] - $1[1]) < 0.5 }
    }

    /// Refuses corners that cannot be a sheet: not four points, outside the picture (beyond a
    /// small tolerance), or not a convex shape in order round the sheet covering a fair part of it.
    public var problem: UserMessage? {
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 && $0[0].isFinite && $0[1].isFinite }) else {
            return UserMessage(nb: "Hjørnene må være fire punkt: x1,y1,x2,y2,x3,y3,x4,y4.",
                               en: "The corners must be four points: x1,y1,x2,y2,x3,y3,x4,y4.")
        }
        let w = Double(width), h = Double(height)
        let slack = 0.02 * max(w, h)
        guard corners.allSatisfy({ $0[0] >= -slack && $0[1] >= -slack && $0[0] <= w + slack && $0[1] <= h + slack }) else {
            return UserMessage(nb: "Et hjørne ligger utenfor bildet (\(width) × \(height) punkter). Flytt det inn på bildet.",
                               en: "A corner lies outside the picture (\(width) × \(height) pixels). Move it onto the picture.")
        }
        var sign = 0.0, area = 0.0
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
            area += a[0] * b[1] - b[0] * a[1]
            let cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            if sign == 0 { sign = cross > 0 ? 1 : -1 } else if cross * sign <= 0 { sign = .nan }
        }
        guard !sign.isNaN, sign > 0, abs(area) / 2 >= 0.02 * w * h else {
            return UserMessage(
                nb: "Hjørnene danner ikke et ark: de må gå rundt arket med klokka (øverst til venstre, øverst til høyre, nederst til høyre, nederst til venstre).",
                en: "The corners do not make a sheet: they must go round it clockwise (top left, top right, bottom right, bottom left).")
        }
        return nil
    }

    /// The corners kept within the picture.
    public var clamped: PageCrop {
        var copy = self
        copy.corners = corners.map { [min(max($0[0], 0), Double(width)), min(max($0[1], 0), Double(height))] }
        return copy
    }

    /// Parses `x1,y1,x2,y2,x3,y3,x4,y4` (spaces allowed); nil unless eight numbers.
    public static func corners(_ text: String) -> [[Double]]? {
        let numbers = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }).map { Double($0) }
        guard numbers.count == 8, numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.compactMap { $0 }
        return stride(from: 0, to: 8, by: 2).map { [values[$0], values[$0 + 1]] }
    }
}
