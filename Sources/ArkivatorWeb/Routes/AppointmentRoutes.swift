import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebServer {
    /// A letter's appointments corrected in review like any field: saved (`uid` given), added (no
    /// `uid`), removed one by one or all at once («Ingen time i dette brevet»). Each is the same
    /// library call as the API's, and marks the appointments corrected by hand, so reading the
    /// text again never undoes it. Back to the document page, or to review (`back=review`).
    func addAppointmentRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, jobs = explanationJobs
        // The letter's appointment as one .ics file, for a calendar that does not subscribe: the
        // same events (and UIDs) as the member's feed, so adding both never doubles it.
        pages.get("/documents/{id}/time.ics") { _, context -> Response in
            let id = try Self.documentID(context)
            let appointments = try await store.read { try $0.calendar.appointments(ofDocument: id) }
            guard let first = appointments.first else { throw WebError.notFound }
            var headers = HTTPFields()
            headers[.contentType] = "text/calendar; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"time-\(first.appointment.date).ics\""
            return Response(status: .ok, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: AppointmentCalendar.ics(appointments))))
        }
        pages.post("/documents/{id}/appointments") { request, context -> Response in
            let id = try Self.documentID(context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let appointment = AppointmentsView.appointment(form), uid = form.value("uid")
            let shortID: String
            do {
                shortID = try await store.write { library in
                    _ = try library.calendar.saveAppointment(appointment, uid: uid, document: id)
                    return try library.documents.document(id).shortID
                }
            } catch let failure as LibraryFailure where failure.code == .badAppointment {
                return try await Self.documentPage(id, store: store, templates: templates, jobs: jobs, context: context,
                                                   problem: failure.userMessage.text(in: context.language))
            }
            return Self.redirect(Self.appointmentsBack(form, id: shortID, outcome: uid == nil ? "lagt-til" : "lagret"))
        }
        pages.post("/documents/{id}/appointments/remove") { request, context -> Response in
            let id = try Self.documentID(context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let uid = form.value("uid")
            let shortID = try await store.write { library in
                _ = try library.calendar.removeAppointments(document: id, uid: uid)
                return try library.documents.document(id).shortID
            }
            return Self.redirect(Self.appointmentsBack(form, id: shortID, outcome: "fjernet"))
        }
    }

    /// Where a change to the appointments leads: review, or the top of the document page (its notice, then «Time»).
    static func appointmentsBack(_ form: WebForm, id: String, outcome: String) -> String {
        form["back"] == "review" ? "/review#appointments-heading" : "/documents/\(id)?time=\(outcome)"
    }
}
