@testable import ArkivatorOCR
import Testing

/// Two readings of one page combined word by word: the kept reading takes the words the other
/// reading is surer of, over short stretches only, and keeps its own order, layout and boxes.
@Suite struct CombinedReadingTests {
    /// A page of words given as (text, confidence), 100 px apart on one line per `perLine` words.
    private func page(_ words: [(String, Double)], perLine: Int = 4, x: Int = 0) -> OCRPage {
        let items = words.enumerated().map { index, word in
            (text: word.0, confidence: word.1, box: [x + 100 * (index % perLine), 50 * (index / perLine), 80, 40],
             breakBefore: index == 0 ? LayoutBreak.paragraph : index % perLine == 0 ? .line : .none)
        }
        return OCRPage.assemble(items, typography: false)
    }

    @Test func aWordTheOtherReadingIsSurerOfIsTaken() {
        let kept = page([("Det", 0.96), ("er", 0.95), ("enåvidere", 0.55), ("sendt", 0.93), ("til", 0.96), ("oss", 0.94)])
        let other = page([("Det", 0.96), ("er", 0.95), ("endvidere", 0.91), ("sendt", 0.93), ("til", 0.9), ("os", 0.5)], x: 37)
        let (combined, taken) = kept.combined(with: other)
        #expect(taken == 1)
        #expect(combined.text == "Det er endvidere sendt\ntil oss")
        // The word taken stands where the kept reading's word stood on its page.
        #expect(combined.words[2].box == kept.words[2].box)
        #expect(combined.words[2].confidence == 0.91)
    }

    /// Where one reading's word is a word and the other's is not, the word is taken though it is
    /// read with a little less confidence; the other way round only when much surer.
    @Test func aWordOfTheLanguageIsTakenOverOneThatIsNot() throws {
        try #require(Lexicon.shared != nil, "Debian's wnorwegian and wdanish (make test installs them)")
        let kept = page([("Det", 0.96), ("er", 0.95), ("øsift", 0.78), ("nå", 0.93)])
        let other = page([("Det", 0.96), ("er", 0.95), ("gift", 0.7), ("nå", 0.93)])
        #expect(kept.combined(with: other).page.text == "Det er gift nå")
        let unsure = page([("Det", 0.96), ("er", 0.95), ("gift", 0.5), ("nå", 0.93)])
        #expect(kept.combined(with: unsure).taken == 0)
        #expect(other.combined(with: kept).taken == 0)
    }

    /// Where both readings differ in as many words side by side, each word is judged against its
    /// own: the stretch is not taken or kept as a whole.
    @Test func wordsSideBySideAreJudgedEachOnItsOwn() {
        let kept = page([("de", 0.96), ("jødiske", 0.93), ("Foretagender.", 0.13), ("og", 0.95)])
        let other = page([("de", 0.96), ("Jødiske", 0.88), ("Foretagender,", 0.9), ("og", 0.95)])
        let (combined, taken) = kept.combined(with: other, lexicon: nil)
        #expect(taken == 1)
        #expect(combined.text == "de jødiske Foretagender, og")
    }

    @Test func aWordTheOtherIsNotMuchSurerOfStays() {
        let kept = page([("Det", 0.96), ("er", 0.95), ("deres", 0.85), ("sak", 0.93)])
        let other = page([("Det", 0.96), ("er", 0.95), ("dered", 0.9), ("sak", 0.93)])
        #expect(kept.combined(with: other).taken == 0)
    }

    @Test func aLongStretchReadDifferentlyIsNotTaken() {
        let kept = page([("Tak", 0.96), ("a", 0.3), ("b", 0.3), ("c", 0.3), ("d", 0.3), ("for", 0.96), ("brevet", 0.96)])
        let other = page([("Tak", 0.96), ("w", 0.9), ("x", 0.9), ("y", 0.9), ("z", 0.9), ("for", 0.96), ("brevet", 0.96)])
        #expect(kept.combined(with: other).taken == 0)
    }

    @Test func wordsTakenInAnotherNumberShareTheKeptWordsPlace() {
        let kept = page([("Han", 0.96), ("kom", 0.95), ("Sagførem", 0.4), ("maa", 0.5), ("ikke", 0.93)], perLine: 5)
        let other = page([("Han", 0.96), ("kom", 0.95), ("Sagføreremaa", 0.9), ("ikke", 0.93)], perLine: 5)
        let (combined, taken) = kept.combined(with: other)
        #expect(taken == 1)
        #expect(combined.text == "Han kom Sagføreremaa ikke")
        #expect(combined.words[2].box == [200, 0, 180, 40])
        #expect(OCRPage.shared([[0, 0, 80, 40], [100, 0, 80, 40]], among: [3, 1, 2]) == [[0, 0, 90, 40], [90, 0, 30, 40], [120, 0, 60, 40]])
    }

    @Test func aLineTheKeptReadingLacksIsTakenOnlyWhenAsked() {
        // A title in a coloured bar that the cleanup left out; the page as it came reads it.
        let kept = page([("Reminder:", 0.95), ("dentist", 0.96), ("appointment", 0.96), ("today", 0.95)])
        let other = page([("Appointments", 0.96), ("Reminder:", 0.95), ("dentist", 0.96), ("appointment", 0.96), ("today", 0.95)],
                         perLine: 1)
        #expect(kept.combined(with: other).taken == 0)
        let (combined, taken) = kept.combined(with: other, missingWords: true)
        #expect(taken == 1)
        #expect(combined.text == "Appointments\n\nReminder: dentist appointment today")
        // At a point where the kept reading's first word stands.
        #expect(combined.words[0].box == [0, 0, 1, 40])
        // Not a number (no box to mask it), not a word read with doubt, not words the kept reading has close by.
        let number = page([("12345678901", 0.96), ("Reminder:", 0.95), ("dentist", 0.96), ("appointment", 0.96), ("today", 0.95)])
        #expect(kept.combined(with: number, missingWords: true).taken == 0)
        let doubtful = page([("Appointments", 0.6), ("Reminder:", 0.95), ("dentist", 0.96), ("appointment", 0.96), ("today", 0.95)])
        #expect(kept.combined(with: doubtful, missingWords: true).taken == 0)
        let twice = page([("today", 0.95), ("Reminder:", 0.95), ("dentist", 0.96), ("appointment", 0.96)])
        #expect(kept.combined(with: twice, missingWords: true).taken == 0)
    }
}
