#!/usr/bin/env python3
"""Reads a .docx the way an independent program would, for Arkivator's tests.

    python3 scripts/test/read_docx.py FILE.docx

prints one JSON object:

    {"paragraphs":  [python-docx paragraph.text of each body paragraph],
     "highlighted": [text of every body run highlighted yellow, in order],
     "core":        {"title": ..., "created": "YYYY-MM-DDTHH:MM:SSZ" or null},
     "custom":      {name: value} from docProps/custom.xml,
     "header":      text of the first section's header (paragraphs joined by "\\n"),
     "footer":      text of the first section's footer}

Needs python-docx (`pip install python-docx`); `make test` installs it.
"""
import json
import sys
import zipfile
import xml.etree.ElementTree as ElementTree

CUSTOM = "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}"
VT = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"


def custom_properties(path):
    """docProps/custom.xml as {name: text value} (python-docx does not read custom properties)."""
    with zipfile.ZipFile(path) as archive:
        if "docProps/custom.xml" not in archive.namelist():
            return {}
        root = ElementTree.fromstring(archive.read("docProps/custom.xml"))
    result = {}
    for prop in root.findall(CUSTOM + "property"):
        value = next(iter(prop), None)
        result[prop.get("name")] = "" if value is None or value.text is None else value.text
    return result


def part_text(part):
    return "\n".join(paragraph.text for paragraph in part.paragraphs)


def main(argv):
    if len(argv) != 2:
        print("usage: python3 scripts/test/read_docx.py FILE.docx", file=sys.stderr)
        return 2
    try:
        import docx
        from docx.enum.text import WD_COLOR_INDEX
    except ImportError:
        print("python-docx is missing: run `make test` or `pip install python-docx`", file=sys.stderr)
        return 3
    path = argv[1]
    document = docx.Document(path)
    highlighted = [run.text for paragraph in document.paragraphs for run in paragraph.runs
                   if run.font.highlight_color == WD_COLOR_INDEX.YELLOW]
    created = document.core_properties.created
    section = document.sections[0]
    result = {
        "paragraphs": [paragraph.text for paragraph in document.paragraphs],
        "highlighted": highlighted,
        "core": {
            "title": document.core_properties.title,
            "created": created.strftime("%Y-%m-%dT%H:%M:%SZ") if created else None,
        },
        "custom": custom_properties(path),
        "header": part_text(section.header),
        "footer": part_text(section.footer),
    }
    # UTF-8 whatever the locale says.
    sys.stdout.buffer.write((json.dumps(result, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
