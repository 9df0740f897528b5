/// The title every document carries: `YYYY-MM-DD Beskrivende tittel`, the letter's date, one
/// space and the words that say what it is. The one place that builds and reads that form (the
/// rules, the language model's merge, a correction, the library's lists).
public enum DocumentTitle {
    /// `2024-03-14 Epikrise Ortopedisk avdeling`.
    public static func make(date: String, _ description: String) -> String {
        date + " " + StoredField.visible(description).trimmingCharacters(in: .whitespaces)
    }

    /// `make(date:_:)` for a calendar date.
    public static func make(date: CalendarDate, _ description: String) -> String {
        make(date: date.iso, description)
    }

    /// The date a title begins with: a valid `YYYY-MM-DD` that is the whole title or is followed
    /// by a space; nil otherwise.
    public static func date(of title: String) -> CalendarDate? {
        let head = title.prefix(10)
        guard head.count == 10, let date = CalendarDate(iso: String(head)) else { return nil }
        let rest = title.dropFirst(10)
        return rest.isEmpty || rest.first == " " ? date : nil
    }

    /// The words after the date (`Epikrise Ortopedisk avdeling`); the whole title when it does not
    /// begin with a date.
    public static func description(of title: String) -> String {
        guard date(of: title) != nil else { return title }
        return String(title.dropFirst(11))
    }

    /// A title a person typed, dated: as it is when it begins with a date, else with `date` in front.
    public static func dated(_ typed: String, date: String) -> String {
        self.date(of: typed) != nil ? StoredField.visible(typed).trimmingCharacters(in: .whitespaces) : make(date: date, typed)
    }

    /// The title for a new letter date: the date replaced when the title begins with `old` (a
    /// title someone wrote without it stays as it is).
    public static func redated(_ title: String, from old: String, to new: String) -> String {
        guard date(of: title)?.iso == old else { return title }
        return make(date: new, description(of: title))
    }

    /// The title for a new document type: the type's word after the date replaced when the title
    /// begins with `date` and the old word (the way the rules write it).
    public static func retyped(_ title: String, date: String, from oldWord: String, to newWord: String) -> String {
        guard self.date(of: title)?.iso == date else { return title }
        let words = description(of: title)
        guard words == oldWord || words.hasPrefix(oldWord + " ") else { return title }
        return make(date: date, newWord + words.dropFirst(oldWord.count))
    }
}
