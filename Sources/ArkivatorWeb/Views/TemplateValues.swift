import Mustache

// The view models hand their values to the templates by name. Without this, swift-mustache
// finds each value by reflection (`Mirror`), which demangles every field's type on every lookup:
// two thirds of a library page's time at 100,000 letters went there. A name a model does not
// have answers nil, so the template looks further out (the page's words `t`, the layout's `page`).

extension Templates.Chrome: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "lang": lang
        case "signedIn": signedIn
        case "owner": owner
        case "mayChange": mayChange
        case "account": account
        case "csrf": csrf
        case "scripts": scripts
        case "section": section
        default: nil
        }
    }
}

extension DocumentRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "typeLabel": typeLabel
        case "date": date
        case "person": person
        case "institution": institution
        case "upload": upload
        case "hasSnippet": hasSnippet
        case "snippet": snippet
        case "thumbnail": thumbnail
        case "checked": checked
        default: nil
        }
    }
}

extension Piece: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "hit": hit
        case "low": low
        default: nil
        }
    }
}

extension Option: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}

extension FilterView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "withQuery": withQuery
        case "q": q
        case "qEncoded": qEncoded
        case "people": people
        case "types": types
        case "from": from
        case "to": to
        case "institution": institution
        case "activeCount": activeCount
        case "open": open
        default: nil
        }
    }
}

extension PagerView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "newer": newer
        case "older": older
        case "label": label
        default: nil
        }
    }
}

extension ResultsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "notes": notes
        case "problem": problem
        case "emptyText": emptyText
        case "countText": countText
        case "hasDocuments": hasDocuments
        case "documents": documents
        case "pager": pager
        case "many": many
        default: nil
        }
    }
}

extension WebServer.ManyView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "back": back
        case "people": people
        case "hasPeople": !people.isEmpty
        case "types": types
        case "allChecked": allChecked
        case "selectAll": selectAll
        case "notice": notice
        case "undoToken": undoToken
        case "saved": saved
        case "hasSaved": !saved.isEmpty
        case "canSave": canSave
        case "suggestedName": suggestedName
        default: nil
        }
    }
}

extension WebServer.LibraryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "deleted": deleted
        case "uploadBanner": uploadBanner
        case "timeline": timeline
        case "filters": filters
        case "results": results
        case "shareLink": shareLink
        default: nil
        }
    }
}

extension WebServer.SearchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "filters": filters
        case "results": results
        case "shareLink": shareLink
        default: nil
        }
    }
}

extension UploadState.Banner: MustacheParent {
    func child(named name: String) -> Any? {
        name == "reason" ? reason : nil
    }
}

extension DocumentView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "notice": notice
        case "problem": problem
        case "fields": fields
        case "trashed": trashed
        case "canRedact": canRedact
        case "edit": edit
        case "hasImages": hasImages
        case "images": images
        case "hasText": hasText
        case "textParts": textParts
        case "files": files
        case "textEditor": textEditor
        case "explanation": explanation
        case "photos": photos
        case "hasPhotos": hasPhotos
        case "appointmentsView": appointmentsView
        default: nil
        }
    }
}

extension EditView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "button": button
        case "skip": skip
        case "skipped": skipped
        case "title": title
        case "people": people
        case "types": types
        case "date": date
        case "institution": institution
        case "specialty": specialty
        case "keywords": keywords
        case "marks": marks
        default: nil
        }
    }
}

extension EditView.Mark: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "uncertain": uncertain
        case "confidence": confidence
        default: nil
        }
    }
}

extension WebServer.ReviewView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "done": done
        case "id": id
        case "title": title
        case "waitingText": waitingText
        case "reasons": reasons
        case "hasReasons": !reasons.isEmpty
        case "thumbnail": thumbnail
        case "firstPage": images.first?.href
        case "noText": noText
        case "edit": edit
        case "hasImages": hasImages
        case "images": images
        case "hasText": hasText
        case "textParts": textParts
        case "textEditor": textEditor
        case "photos": photos
        case "hasPhotos": hasPhotos
        case "appointmentsView": appointmentsView
        default: nil
        }
    }
}

extension WebServer.ReviewView.Reason: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "words": words
        case "hasWords": !words.isEmpty
        case "more": more
        default: nil
        }
    }
}

extension WebServer.PasswordView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "setup": setup
        case "askName": askName
        case "again": again
        case "typedName": typedName
        case "action": action
        case "problem": problem
        case "code": code
        case "intro": intro
        case "autocomplete": autocomplete
        case "button": button
        default: nil
        }
    }
}
