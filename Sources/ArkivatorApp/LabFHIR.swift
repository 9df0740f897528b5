import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// The household's lab values as a FHIR R4 Bundle (`arkivator labs --fhir`): a `collection` of
/// one Patient per person (the name and birth date, never the fødselsnummer) and one laboratory
/// Observation per value: the analysis with its LOINC code where one fits the analysis and unit,
/// the value as a Quantity with its UCUM unit (the decimals as printed; «< 5» with its
/// comparator), the reference range, H or L as the interpretation, the day the sample was taken.
/// A value in doubt that no person confirmed is `preliminary`, with a note saying so.
public enum LabFHIR {
    /// The bundle's JSON text. `birthDates`: the household members' birth dates by name.
    public static func bundle(_ readings: [LabReading], birthDates: [String: String] = [:]) -> String {
        var numbers: [String: String] = [:]
        /// A decimal as printed («4,30» → 4.30): JSON has no way to keep «4.30» through a Double,
        /// so it is written in place of a marker after serialisation.
        func decimal(_ value: Double, printed: String) -> String {
            let marker = "§decimal\(numbers.count)§"
            let digits = printed.filter { $0.isNumber || $0 == "," || $0 == "." }.replacingOccurrences(of: ",", with: ".")
            numbers[marker] = Double(digits) == value ? digits : String(value)
            return marker
        }
        var patients: [String: String] = [:]
        var entries: [[String: Any]] = []
        for name in Set(readings.map { $0.member ?? $0.person ?? "" }).sorted() {
            let url = "urn:uuid:" + UUID().uuidString.lowercased()
            patients[name] = url
            var patient: [String: Any] = ["resourceType": "Patient"]
            if !name.isEmpty {
                let parts = name.split(separator: " ").map(String.init)
                var human: [String: Any] = ["text": name]
                if parts.count >= 2 {
                    human["family"] = parts[parts.count - 1]
                    human["given"] = Array(parts.dropLast())
                }
                patient["name"] = [human]
            }
            if let born = birthDates[name], CalendarDate(iso: born) != nil { patient["birthDate"] = born }
            entries.append(["fullUrl": url, "resource": patient])
        }
        for reading in readings {
            let entry = reading.entry
            var observation: [String: Any] = [
                "resourceType": "Observation",
                "status": entry.inDoubt ? "preliminary" : "final",
                "category": [["coding": [["system": "http://terminology.hl7.org/CodeSystem/observation-category",
                                          "code": "laboratory", "display": "Laboratory"]]]],
                "subject": ["reference": patients[reading.member ?? reading.person ?? ""] ?? "", "display": reading.member ?? reading.person ?? ""],
                "effectiveDateTime": reading.day,
            ]
            var code: [String: Any] = ["text": entry.analysis]
            if let loinc = LabCodes.loinc(analysis: entry.analysis, unit: entry.unit) {
                code["coding"] = [["system": "http://loinc.org", "code": loinc.code, "display": loinc.display]]
            }
            observation["code"] = code
            let ucum = entry.unit.flatMap(LabCodes.ucum)
            func quantity(_ value: Double, printed: String) -> [String: Any] {
                var q: [String: Any] = ["value": decimal(value, printed: printed)]
                if let unit = entry.unit { q["unit"] = unit }
                if let ucum {
                    q["system"] = "http://unitsofmeasure.org"
                    q["code"] = ucum
                }
                return q
            }
            if let number = LabNumber(printed: entry.value) {
                var q = quantity(number.value, printed: entry.value)
                switch number.comparator {
                case "<": q["comparator"] = "<"
                case "≤": q["comparator"] = "<="
                case ">": q["comparator"] = ">"
                case "≥": q["comparator"] = ">="
                default: break
                }
                observation["valueQuantity"] = q
            } else {
                observation["valueString"] = entry.value
            }
            switch entry.flag {
            case "H": observation["interpretation"] = [["coding": [["system": "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
                                                                   "code": "H", "display": "High"]]]]
            case "L": observation["interpretation"] = [["coding": [["system": "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
                                                                   "code": "L", "display": "Low"]]]]
            default: break
            }
            if let range = entry.range {
                var reference: [String: Any] = ["text": range]
                if let bounds = LabNumber.bounds(ofRange: range) {
                    let pieces = range.split(whereSeparator: { "-–—‒−<>≤≥ ".contains($0) }).map(String.init)
                    if let low = bounds.low { reference["low"] = quantity(low, printed: pieces.first ?? "") }
                    if let high = bounds.high { reference["high"] = quantity(high, printed: pieces.last ?? "") }
                }
                observation["referenceRange"] = [reference]
            }
            var notes = ["Fra brevet «\(Redaction.redact(reading.title))» (\(reading.letter)), lest av maskinen (OCR)."]
            if entry.inDoubt { notes.append("Et tall i raden kan være feillest. Sjekk verdien mot brevet før den brukes.") }
            if entry.confirmed { notes.append("Verdien er sjekket mot brevet av en person i husstanden.") }
            observation["note"] = notes.map { ["text": $0] }
            entries.append(["fullUrl": "urn:uuid:" + UUID().uuidString.lowercased(), "resource": observation])
        }
        let bundle: [String: Any] = ["resourceType": "Bundle", "type": "collection",
                                     "timestamp": ISO8601DateFormatter().string(from: Date()), "entry": entries]
        guard let data = try? JSONSerialization.data(withJSONObject: bundle, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        var text = String(decoding: data, as: UTF8.self)
        for (marker, number) in numbers { text = text.replacingOccurrences(of: "\"\(marker)\"", with: number) }
        return text
    }
}

/// The codes the FHIR export gives an analysis and a unit: LOINC where one code fits the
/// analysis measured in that kind of unit (amount or mass), UCUM for the units the rules know.
public enum LabCodes {
    /// Analysis, the units its code is for, the code and its name.
    static let loincCodes: [(analysis: String, units: Set<String>, code: String, display: String)] = [
        ("HbA1c", ["mmol/mol"], "59261-8", "Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol"),
        ("HbA1c", ["%"], "4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood"),
        ("Hemoglobin", ["g/dL", "g/L"], "718-7", "Hemoglobin [Mass/volume] in Blood"),
        ("Erytrocytter", ["x10^12/L", "10^12/L"], "789-8", "Erythrocytes [#/volume] in Blood by Automated count"),
        ("Leukocytter", ["x10^9/L", "10^9/L"], "6690-2", "Leukocytes [#/volume] in Blood by Automated count"),
        ("Trombocytter", ["x10^9/L", "10^9/L"], "777-3", "Platelets [#/volume] in Blood by Automated count"),
        ("MCV", ["fL"], "787-2", "MCV [Entitic volume] by Automated count"),
        ("CRP", ["mg/L"], "1988-5", "C reactive protein [Mass/volume] in Serum or Plasma"),
        ("Kreatinin", ["µmol/L"], "14682-9", "Creatinine [Moles/volume] in Serum or Plasma"),
        ("Natrium", ["mmol/L"], "2951-2", "Sodium [Moles/volume] in Serum or Plasma"),
        ("Kalium", ["mmol/L"], "2823-3", "Potassium [Moles/volume] in Serum or Plasma"),
        ("Kalsium", ["mmol/L"], "2000-8", "Calcium [Moles/volume] in Serum or Plasma"),
        ("Totalkolesterol", ["mmol/L"], "14647-2", "Cholesterol [Moles/volume] in Serum or Plasma"),
        ("LDL-kolesterol", ["mmol/L"], "22748-8", "Cholesterol in LDL [Moles/volume] in Serum or Plasma"),
        ("HDL-kolesterol", ["mmol/L"], "14646-4", "Cholesterol in HDL [Moles/volume] in Serum or Plasma"),
        ("Triglyserider", ["mmol/L"], "14927-8", "Triglyceride [Moles/volume] in Serum or Plasma"),
        ("Glukose", ["mmol/L"], "14749-6", "Glucose [Moles/volume] in Serum or Plasma"),
        ("ALAT", ["U/L"], "1742-6", "Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma"),
        ("ASAT", ["U/L"], "1920-8", "Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma"),
        ("GT", ["U/L"], "2324-2", "Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma"),
        ("ALP", ["U/L"], "6768-6", "Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma"),
        ("Albumin", ["g/L"], "1751-7", "Albumin [Mass/volume] in Serum or Plasma"),
        ("TSH", ["mIE/L", "mIU/L", "mU/L"], "3016-3", "Thyrotropin [Units/volume] in Serum or Plasma"),
        ("Fritt T4", ["pmol/L"], "14920-3", "Thyroxine (T4) free [Moles/volume] in Serum or Plasma"),
        ("Ferritin", ["µg/L"], "2276-4", "Ferritin [Mass/volume] in Serum or Plasma"),
        ("25-OH vitamin D", ["nmol/L"], "62292-8", "25-Hydroxyvitamin D2+D3 [Moles/volume] in Serum or Plasma"),
        ("Vitamin B12", ["pmol/L"], "14685-2", "Cobalamin (Vitamin B12) [Moles/volume] in Serum or Plasma"),
        ("eGFR", ["mL/min/1,73m²"], "62238-1", "Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI)"),
    ]

    /// The LOINC code of an analysis measured in `unit`; nil when none fits.
    public static func loinc(analysis: String, unit: String?) -> (code: String, display: String)? {
        guard let unit else { return nil }
        return loincCodes.first { $0.analysis.caseInsensitiveCompare(analysis) == .orderedSame && $0.units.contains(unit) }
            .map { ($0.code, $0.display) }
    }

    static let ucumUnits: [String: String] = [
        "g/dL": "g/dL", "g/L": "g/L", "mg/dL": "mg/dL", "mg/L": "mg/L", "µg/L": "ug/L", "ng/L": "ng/L", "ng/mL": "ng/mL",
        "pg/mL": "pg/mL", "mol/L": "mol/L", "mmol/L": "mmol/L", "µmol/L": "umol/L", "nmol/L": "nmol/L", "pmol/L": "pmol/L",
        "mmol/mol": "mmol/mol", "mg/mmol": "mg/mmol", "U/L": "U/L", "kU/L": "kU/L", "mU/L": "mU/L", "IE/L": "[IU]/L",
        "kIE/L": "k[IU]/L", "mIE/L": "m[IU]/L", "mIU/L": "m[IU]/L", "µkat/L": "ukat/L", "x10^9/L": "10*9/L",
        "x10^12/L": "10*12/L", "10^9/L": "10*9/L", "10^12/L": "10*12/L", "mL/min/1,73m²": "mL/min/{1.73_m2}",
        "mL/min": "mL/min", "%": "%", "fL": "fL", "pg": "pg", "L/L": "L/L", "kPa": "kPa", "mm/t": "mm/h", "mm/h": "mm/h",
    ]

    /// The UCUM code of a unit as the rules spell it; nil for a unit they do not know.
    public static func ucum(_ unit: String) -> String? { ucumUnits[unit] }
}
