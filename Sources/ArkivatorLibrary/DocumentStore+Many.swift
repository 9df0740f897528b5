import ArkivatorCore

/// What a change to many letters at once did: each letter as it was before (for an undo), and
/// the letters it could not change, with why.
public struct ManyChanged: Sendable {
    public var before: [LibraryDocument] = []
    public var failed: [(id: String, reason: UserMessage)] = []
}

extension DocumentStore {
    /// The same correction for each of `ids`, letter by letter (each all or nothing, as
    /// ``edit(_:_:programVersion:)``): a letter that cannot be changed (gone, in the trash, a
    /// name taken) is named in `failed`, and the others are changed all the same.
    public func editMany(_ ids: [String], _ changes: DocumentChanges, programVersion: String) -> ManyChanged {
        var outcome = ManyChanged()
        for id in ids {
            do {
                let before = try document(id, revealNumbers: false)
                _ = try edit(id, changes, programVersion: programVersion)
                outcome.before.append(before)
            } catch {
                outcome.failed.append((id, UserMessage(error: error)))
            }
        }
        return outcome
    }

    /// Moves each of `ids` to the trash (see ``delete(_:purge:)``), letter by letter.
    public func trashMany(_ ids: [String]) -> ManyChanged {
        var outcome = ManyChanged()
        for id in ids {
            do {
                outcome.before.append(try delete(id))
            } catch {
                outcome.failed.append((id, UserMessage(error: error)))
            }
        }
        return outcome
    }

    /// Puts each letter back as `before` held it: its title, type and whom it is filed to, or,
    /// when it is in the trash now, back from the trash. Returns how many are as before.
    public func undoMany(_ before: [LibraryDocument], programVersion: String) -> Int {
        var undone = 0
        for old in before {
            do {
                let now = try document(old.sha256)
                if now.trashedAt != nil {
                    _ = try restore(old.sha256)
                } else {
                    var changes = DocumentChanges(title: old.title == now.title ? nil : old.title,
                                                  type: old.docType == now.docType ? nil : old.docType)
                    if old.familyMember != now.familyMember || old.person != now.person {
                        changes.filing = PersonFiling(familyMember: old.familyMember, person: old.person)
                    }
                    if !changes.isEmpty { _ = try edit(old.sha256, changes, programVersion: programVersion) }
                }
                undone += 1
            } catch {
                continue
            }
        }
        return undone
    }
}
