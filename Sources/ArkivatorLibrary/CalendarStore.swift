/// The appointments letters call to: found at filing, corrected by hand, read again with a page,
/// and each member's calendar feed (`/kalender/<secret>.ics`). A small store over the library's
/// connections.
public struct CalendarStore: Sendable {
    let library: Library
}

extension Library {
    /// The appointments and the calendar feeds.
    public var calendar: CalendarStore { CalendarStore(library: self) }
}
