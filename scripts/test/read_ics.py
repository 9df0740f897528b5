#!/usr/bin/env python3
"""Reads an iCalendar file with an independent reader (Debian's python3-icalendar) and prints its
events as JSON; exits non-zero when the file breaks RFC 5545's line rules or the reader fails."""
import json
import sys

from icalendar import Calendar


def main(path):
    raw = open(path, "rb").read()
    problems = []
    if not raw.endswith(b"\r\n"):
        problems.append("the file does not end with CRLF")
    for number, line in enumerate(raw.split(b"\r\n")[:-1], 1):
        if b"\n" in line or b"\r" in line:
            problems.append(f"line {number}: a bare line break")
        if len(line) > 75:
            problems.append(f"line {number}: {len(line)} octets")
    calendar = Calendar.from_ical(raw)
    zones = [str(z.get("tzid")) for z in calendar.walk("VTIMEZONE")]
    events = []
    for event in calendar.walk("VEVENT"):
        start = event.decoded("dtstart")
        events.append({
            "uid": str(event.get("uid")),
            "summary": str(event.get("summary")),
            "location": str(event.get("location")) if event.get("location") is not None else None,
            "description": str(event.get("description")),
            "status": str(event.get("status")),
            "start": start.isoformat(),
            "tzid": event["dtstart"].params.get("TZID"),
            "alarms": sorted(int(a.decoded("trigger").total_seconds()) for a in event.walk("VALARM")),
        })
    print(json.dumps({"zones": zones, "events": events, "problems": problems}, ensure_ascii=False))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
