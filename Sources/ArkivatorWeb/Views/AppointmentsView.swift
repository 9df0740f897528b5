import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// A letter's «Time» section (document page and review): each appointment it calls to, moves or
/// cancels, in words, with a form to correct it and one to remove it; «Ingen time i dette brevet»;
/// and a form to add one the finder missed. Plain forms (they work without script), each posted
/// with the page's CSRF token.
struct AppointmentsView {
    /// The letter's short id (the forms' address).
    let id: String
    /// Where a form leads back to: "" (the document page) or "review".
    let back: String
    let hasAppointments: Bool
    let appointments: [Item]
    /// False in the trash: shown, not changed.
    let canChange: Bool
    /// "Rettet for hånd": the appointments are kept as a person left them when the text is read again.
    let corrected: Bool
    let removeAllQuestion: String

    /// One appointment in words and as the form's values.
    struct Item {
        let uid: String
        /// 1…, for the forms' field ids.
        let number: Int
        let when: String
        let place: String?
        let bring: String?
        let change: String?
        let cancelled: Bool
        let moved: Bool
        let date: String
        let time: String
        let placeValue: String
        let bringValue: String
        let changeValue: String
        let removeQuestion: String
    }

    init(id: String, stored: [StoredAppointment], trashed: Bool, corrected: Bool, back: String = "", words: Words) {
        self.id = id
        self.back = back
        canChange = !trashed
        self.corrected = corrected
        appointments = stored.enumerated().map { index, stored in
            let appointment = stored.appointment
            let time = Self.time(appointment, words: words)
            return Item(uid: stored.uid, number: index + 1, when: Self.when(appointment, words: words),
                        place: appointment.place, bring: appointment.bring, change: appointment.change,
                        cancelled: appointment.cancelled, moved: stored.changedBy != nil && !appointment.cancelled,
                        date: appointment.date, time: appointment.time ?? "", placeValue: appointment.place ?? "",
                        bringValue: appointment.bring ?? "", changeValue: appointment.change ?? "",
                        removeQuestion: words.text("Fjerne timen \(words.date(appointment.date)) \(time) fra brevet og kalenderen?",
                                                   "Remove the appointment on \(appointment.date) \(time) from the letter and the calendar?"))
        }
        hasAppointments = !appointments.isEmpty
        removeAllQuestion = words.text("Fjerne alle timene fra dette brevet og kalenderen? De leses ikke inn igjen om teksten rettes.",
                                       "Remove every appointment from this letter and the calendar? They are not read again if the text is corrected.")
    }

    /// The appointment's time in words: «kl. 09:45», or that the letter gives none.
    static func time(_ appointment: Appointment, words: Words) -> String {
        appointment.time.map { words.text("kl. \($0)", "at \($0)") } ?? words["appointmentsNoTime"]
    }

    /// The appointment's day and time in words: «2025-06-03 kl. 09:45» (the letter's page, review, the timeline).
    static func when(_ appointment: Appointment, words: Words) -> String {
        words.date(appointment.date) + " " + time(appointment, words: words)
    }

    /// The appointment a posted form describes (blank fields are no value; the library checks the day and time).
    static func appointment(_ form: WebForm) -> Appointment {
        // A day typed as a Norwegian writes it (01.12.2025) is taken as that day.
        let typed = form.value("date") ?? ""
        return Appointment(date: CalendarDate(typed: typed)?.iso ?? typed, time: form.value("time"), place: form.value("place"),
                    bring: form.value("bring"), change: form.value("change"), cancelled: form.isTicked("cancelled"))
    }

    /// The notice after a change (`?time=…`).
    static func notice(_ query: WebForm, words: Words) -> String? {
        switch query["time"] {
        case "lagret": return words["calendarAppointmentSaved"]
        case "lagt-til": return words["calendarAppointmentAdded"]
        case "fjernet": return words["calendarAppointmentRemoved"]
        default: return nil
        }
    }
}

extension AppointmentsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "back": back
        case "hasAppointments": hasAppointments
        case "appointments": appointments
        case "canChange": canChange
        case "corrected": corrected
        case "removeAllQuestion": removeAllQuestion
        default: nil
        }
    }
}

extension AppointmentsView.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "uid": uid
        case "number": number
        case "when": when
        case "place": place
        case "bring": bring
        case "change": change
        case "cancelled": cancelled
        case "moved": moved
        case "date": date
        case "time": time
        case "placeValue": placeValue
        case "bringValue": bringValue
        case "changeValue": changeValue
        case "removeQuestion": removeQuestion
        default: nil
        }
    }
}
