import ArkivatorCore
import Foundation

/// Appointments as an iCalendar file (RFC 5545): time zone Europe/Oslo with its VTIMEZONE,
/// reminders one day and two hours before, stable UIDs, CRLF line endings, lines folded at 75
/// octets and text values escaped. An appointment without a time is an all-day event.
public enum AppointmentCalendar {
    /// Length of an event with a time, in minutes (letters rarely say how long).
    static let minutes = 60

    /// The whole calendar. `stamp` is the DTSTAMP of every event (when the file was made). A
    /// `name` (a feed's) is the calendar's name in the phone, and asks it to fetch again hourly.
    public static func ics(_ appointments: [StoredAppointment], name: String? = nil, stamp: Date = Date()) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Arkivator//Arkivator \(ArkivatorVersion.current)//NB",
                     "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-TIMEZONE:Europe/Oslo"]
        if let name {
            lines += ["X-WR-CALNAME:" + escape(name), "NAME:" + escape(name), "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
                      "X-PUBLISHED-TTL:PT1H"]
        }
        lines += timeZone
        for stored in appointments {
            guard let event = event(stored, stamp: stamp) else { continue }
            lines += event
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// Europe/Oslo since 1996: CET, and CEST from the last Sunday of March to the last of October.
    static let timeZone = [
        "BEGIN:VTIMEZONE", "TZID:Europe/Oslo",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
        "END:VTIMEZONE",
    ]

    static func event(_ stored: StoredAppointment, stamp: Date) -> [String]? {
        let appointment = stored.appointment
        guard let day = appointment.calendarDate else { return nil }
        let date = String(format: "%04d%02d%02d", day.year, day.month, day.day)
        var lines = ["BEGIN:VEVENT", "UID:" + escape(stored.uid), "DTSTAMP:" + utc(stamp)]
        if let clock = appointment.clock {
            let end = clock.hour * 60 + clock.minute + minutes
            let endText = end < 24 * 60 ? String(format: "%02d%02d00", end / 60, end % 60) : "235900"
            lines.append("DTSTART;TZID=Europe/Oslo:\(date)T" + String(format: "%02d%02d00", clock.hour, clock.minute))
            lines.append("DTEND;TZID=Europe/Oslo:\(date)T" + endText)
        } else {
            lines.append("DTSTART;VALUE=DATE:\(date)")
            let next = Calendar(identifier: .gregorian).date(
                byAdding: .day, value: 1, to: DateComponents(calendar: Calendar(identifier: .gregorian),
                                                             timeZone: TimeZone(identifier: "UTC"), year: day.year,
                                                             month: day.month, day: day.day).date ?? stamp) ?? stamp
            lines.append("DTEND;VALUE=DATE:" + String(utc(next).prefix(8)))
        }
        let summary = summary(stored)
        lines.append("SUMMARY:" + escape(summary))
        if let place = appointment.place { lines.append("LOCATION:" + escape(place)) }
        lines.append("DESCRIPTION:" + escape(description(stored)))
        lines.append("STATUS:" + (appointment.cancelled ? "CANCELLED" : "CONFIRMED"))
        lines.append("SEQUENCE:\(stored.sequence)")
        for (trigger, words) in [("-P1D", "i morgen"), ("-PT2H", "om to timer")] {
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:" + trigger,
                      "DESCRIPTION:" + escape("\(summary) \(words)"), "END:VALARM"]
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// "Time: Nina Bøe – Nevrologisk poliklinikk, Oslo universitetssykehus" (Bokmål).
    static func summary(_ stored: StoredAppointment) -> String {
        let from = [stored.specialty, stored.sender].compactMap { $0 }.joined(separator: ", ")
        var text = stored.appointment.cancelled ? "Avlyst time" : "Time"
        if let person = stored.person { text += ": " + person }
        if !from.isEmpty { text += " – " + from }
        return text
    }

    static func description(_ stored: StoredAppointment) -> String {
        var parts: [String] = []
        if let bring = stored.appointment.bring { parts.append("Ta med: " + bring) }
        if let change = stored.appointment.change { parts.append("Endre eller avbestille: " + change) }
        parts.append("Brev: \(stored.documentTitle) (\(stored.documentID))")
        return parts.joined(separator: "\n")
    }

    /// TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma and newline.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }

    /// Folds a content line into parts of at most 75 octets, never splitting a character; each
    /// continuation starts with a space (RFC 5545 3.1).
    static func fold(_ line: String) -> String {
        var parts: [String] = []
        var current = "", octets = 0
        for c in line {
            let size = String(c).utf8.count
            let limit = parts.isEmpty ? 75 : 74
            if octets + size > limit {
                parts.append(current)
                current = ""
                octets = 0
            }
            current.append(c)
            octets += size
        }
        parts.append(current)
        return parts.joined(separator: "\r\n ")
    }

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
