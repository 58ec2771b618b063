#!/usr/bin/python3
"""Independent check of Legion Prof binary logs against their JSON listings.

usage: check.py FILE.prof [FILE.prof ...]   (FILE.json must sit next to each)

Parses the text header ("Name {id:N, field:type:size, ...}" lines up to an
empty line), decodes the binary records that follow using only those layouts,
and compares every record, in order, with FILE.json. Decoding rules:
  string (size -1)  NUL-terminated
  bool              one byte, 0 or 1
  long long         signed little-endian integer of the declared size
  maxdim            unsigned; sets the point dimension for later records
  point / array     max_dim / 2*max_dim elements of the declared size (hex)
  uuid              as many bytes as the preceding uuid_size field (hex)
  anything else     unsigned little-endian integer of the declared size
  PhysicalInstanceUsage, format >= 1011: redop is present only if mode == 4
Also checks that the JSON names exactly the header's fields of each kind, that
every kind the header declares is written at least once, and that the file
ends exactly after the last record. Exit status 1 on any mismatch.
"""
import json
import re
import sys

LEGION_REDUCE = 4
HEADER_LINE = re.compile(r"(\w+) \{id:(\d+)((?:, \w+:[A-Za-z_ ]+:-?\d+)+)\}")


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError(f"truncated at byte {self.pos}, wanted {n} bytes")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def line(self):
        end = self.data.index(b"\n", self.pos)
        text = self.data[self.pos:end].decode("ascii")
        self.pos = end + 1
        return text

    def uint(self, n):
        return int.from_bytes(self.take(n), "little")

    def cstring(self):
        end = self.data.index(b"\0", self.pos)
        text = self.data[self.pos:end].decode("utf-8")
        self.pos = end + 1
        return text


def parse_header(r):
    first = r.line()
    m = re.fullmatch(r"FileType: BinaryLegionProf v: (\S+)", first)
    if not m:
        raise ValueError(f"bad first line {first!r}")
    if m.group(1) == "1.0":  # format 1008 and older: no version line
        fmt, legion_version = 1008, None
    else:
        fmt, legion_version = int(m.group(1)), r.line()
    layouts = {}  # id -> (name, [(field, type, size)])
    while True:
        text = r.line()
        if text == "":
            return fmt, legion_version, layouts
        m = HEADER_LINE.fullmatch(text)
        if not m:
            raise ValueError(f"bad header line {text!r}")
        fields = []
        for item in m.group(3)[2:].split(", "):
            fname, ftype, fsize = item.split(":")
            fields.append((fname, ftype, int(fsize)))
        layouts[int(m.group(2))] = (m.group(1), fields)


def decode_record(r, fmt, name, fields, state):
    values = {}
    for fname, ftype, size in fields:
        if (name == "PhysicalInstanceUsage" and fmt >= 1011 and fname == "redop"
                and values["mode"] != LEGION_REDUCE):
            values[fname] = None  # not written
        elif ftype == "string":
            values[fname] = r.cstring()
        elif ftype == "bool":
            byte = r.uint(size)
            if byte not in (0, 1):
                raise ValueError(f"{name}.{fname}: bool byte {byte}")
            values[fname] = bool(byte)
        elif ftype == "long long":
            values[fname] = int.from_bytes(r.take(size), "little", signed=True)
        elif ftype == "point":
            values[fname] = r.take(size * state["max_dim"]).hex()
        elif ftype == "array":
            values[fname] = r.take(size * 2 * state["max_dim"]).hex()
        elif ftype == "uuid":
            values[fname] = r.take(size * values["uuid_size"]).hex()
        else:
            values[fname] = r.uint(size)
            if ftype == "maxdim":
                state["max_dim"] = values[fname]
    return values


def expected_value(v):
    # JSON integers of 2^53 or more are given as decimal strings.
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v):
        return int(v)
    return v


def check(prof_path):
    json_path = re.sub(r"\.prof$", ".json", prof_path)
    with open(prof_path, "rb") as f:
        r = Reader(f.read())
    with open(json_path) as f:
        listing = json.load(f)
    errors = []
    fmt, legion_version, layouts = parse_header(r)
    if fmt != listing["format"]:
        errors.append(f"header format {fmt} != JSON format {listing['format']}")
    if fmt >= 1009 and legion_version != "legion-test-version":
        errors.append(f"second line {legion_version!r}")
    state = {"max_dim": None}
    kinds_written = set()
    expected = listing["records"]
    count = 0
    while r.pos < len(r.data):
        rid = int.from_bytes(r.take(4), "little", signed=True)
        if rid not in layouts:
            errors.append(f"record {count}: unknown id {rid} at byte {r.pos - 4}")
            break
        name, fields = layouts[rid]
        values = decode_record(r, fmt, name, fields, state)
        kinds_written.add(name)
        if count >= len(expected):
            errors.append(f"record {count} ({name}): not in JSON")
        else:
            want = expected[count]
            where = f"record {count} ({name})"
            if want["kind"] != name:
                errors.append(f"{where}: JSON kind {want['kind']}")
            elif list(want["fields"]) != [fl[0] for fl in fields]:
                errors.append(f"{where}: JSON fields {list(want['fields'])}"
                              f" != header {[fl[0] for fl in fields]}")
            else:
                for fname, got in values.items():
                    if expected_value(want["fields"][fname]) != got:
                        errors.append(f"{where}.{fname}: file {got!r}, "
                                      f"JSON {want['fields'][fname]!r}")
        count += 1
    if count != len(expected):
        errors.append(f"{count} records in file, {len(expected)} in JSON")
    declared = {name for name, _ in layouts.values()}
    if declared - kinds_written:
        errors.append(f"kinds declared but not written: {sorted(declared - kinds_written)}")
    status = "FAIL" if errors else "OK"
    print(f"{prof_path}: {status}: format {fmt}, {count} records, "
          f"{len(kinds_written)}/{len(declared)} declared kinds written")
    for e in errors:
        print("  " + e)
    return not errors


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    results = [check(p) for p in paths]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
