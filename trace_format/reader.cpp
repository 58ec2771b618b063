#include "trace_format/reader.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "trace_format/decoder.hpp"
#include "trace_format/writer.hpp"

namespace legato::trace {
namespace {

std::string frame_label(const FrameHeader& h) {
  return "frame " + std::to_string(h.sequence) + " (" + std::string(to_string(h.type)) + ")";
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

}  // namespace

std::string Diagnostic::format(const std::string& file) const {
  return file + ": offset " + std::to_string(offset) + ": " +
         (severity == Severity::Error ? "error: " : "warning: ") + message;
}

bool parse_metadata(const uint8_t* data, size_t size, nlohmann::json& out, std::string& error) {
  struct TooDeep {};
  try {
    out = nlohmann::json::parse(data, data + size,
                                [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
                                  if (depth > kMaxMetadataDepth) throw TooDeep{};
                                  return true;
                                });
  } catch (const nlohmann::json::exception& e) {
    error = std::string("invalid JSON: ") + e.what();
    return false;
  } catch (const TooDeep&) {
    error = "JSON nested deeper than " + std::to_string(kMaxMetadataDepth) + " levels";
    return false;
  }
  if (!out.is_object()) {
    error = std::string("expected a JSON object, found a JSON ") + out.type_name();
    return false;
  }
  return true;
}

std::unique_ptr<TraceReader> TraceReader::open(const std::string& path) {
  return open(open_file_source(path), path);
}

std::unique_ptr<TraceReader> TraceReader::open(std::unique_ptr<ByteSource> source,
                                               std::string name) {
  uint8_t bytes[kFileHeaderSize];
  const size_t n = static_cast<size_t>(std::min<uint64_t>(source->size(), kFileHeaderSize));
  if (!source->read(0, n, bytes)) throw TraceError(name + ": cannot read the file header");
  FileHeaderResult r = decode_file_header(bytes, n);
  if (!r.header) throw TraceError(name + ": " + r.error);
  std::unique_ptr<TraceReader> reader(new TraceReader(std::move(source), std::move(name)));
  reader->header_ = *r.header;
  reader->pos_ = r.header->header_size;
  if (r.header->minor > kFormatMinor) {
    reader->warn(8, "written with trace format " + std::to_string(r.header->major) + "." +
                        std::to_string(r.header->minor) + ", newer than this reader (" +
                        std::to_string(kFormatMajor) + "." + std::to_string(kFormatMinor) +
                        "); records and fields it does not know are skipped");
  }
  return reader;
}

TraceReader::TraceReader(std::unique_ptr<ByteSource> source, std::string name)
    : source_(std::move(source)), name_(std::move(name)), dctx_(ZSTD_createDCtx()) {
  if (dctx_ == nullptr) throw TraceError(name_ + ": out of memory creating the zstd decompressor");
}

TraceReader::~TraceReader() {
  ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx_));
}

bool TraceReader::has_errors() const {
  return std::any_of(diagnostics_.begin(), diagnostics_.end(),
                     [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::Error; });
}

void TraceReader::warn(uint64_t offset, std::string message) {
  diagnostics_.push_back({Diagnostic::Severity::Warning, offset, std::move(message)});
}
void TraceReader::error(uint64_t offset, std::string message) {
  diagnostics_.push_back({Diagnostic::Severity::Error, offset, std::move(message)});
}

bool TraceReader::next(Frame& frame) {
  while (!done_) {
    const uint64_t size = source_->size();
    if (pos_ >= size) {
      end_of_data();
      break;
    }
    const uint64_t remaining = size - pos_;
    if (footer_seen_ || remaining < kFrameHeaderSize) {
      read_trailer(remaining);
      break;
    }
    FrameHeader h;
    if (!read_frame_header(remaining, h)) continue;  // damage skipped, or the end
    const uint64_t at = pos_;
    pos_ += kFrameHeaderSize + h.stored_size;
    check_sequence(h, at);
    if (!read_payload(h, at, raw_)) {
      ++frames_lost_;
      records_lost_ += h.record_count;
      lose(h, at, payload_problem_);
      continue;
    }
    if (!decode_frame(h, at, frame)) continue;
    if (h.type == FrameType::Events && h.record_count > 0) {
      close_gap(h.t_min);
      last_t_max_ = std::max(last_t_max_, h.t_max);
    }
    seen_.push_back(ChunkIndexRecord{at, static_cast<uint8_t>(h.type), h.sequence, h.record_count,
                                     h.stored_size, h.t_min, h.t_max});
    return true;
  }
  close_gap(LostSpan::kToEnd);  // nothing intact after it: lost to the end
  return false;
}

void TraceReader::open_gap(uint64_t offset, std::string why) {
  if (!gap_) gap_ = LostSpan{last_t_max_, LostSpan::kToEnd, offset, 0, std::move(why)};
}

void TraceReader::close_gap(Time to) {
  if (!gap_) return;
  gap_->to = to;
  if (gap_->to > gap_->from) lost_spans_.push_back(std::move(*gap_));
  gap_.reset();
}

// An events frame that could not be used: its header's time range.
void TraceReader::lose(const FrameHeader& h, uint64_t at, std::string why) {
  if (h.type != FrameType::Events || h.t_max < h.t_min) return;
  lost_spans_.push_back(LostSpan{h.t_min, h.t_max, at, h.record_count, std::move(why)});
}

// The last bytes of the file, too few for a frame header or after the footer:
// the trailer if all is well, else a warning saying what they are. Ends reading.
void TraceReader::read_trailer(uint64_t remaining) {
  uint8_t t[kTrailerSize];
  const bool trailer = remaining == kTrailerSize && source_->read(pos_, kTrailerSize, t) &&
                       decode_trailer(t).has_value();
  if (trailer && footer_seen_ && *decode_trailer(t) == footer_offset_) {
    clean_end_ = true;
  } else if (footer_seen_) {
    warn(pos_, "expected the " + std::to_string(kTrailerSize) +
                   "-byte trailer after the footer, found " + std::to_string(remaining) +
                   " other bytes; they were ignored");
  } else if (trailer) {
    warn(pos_,
         "the file ends with a trailer but its footer was lost; every intact frame was loaded");
  } else {
    warn(pos_, "the file ends " + std::to_string(remaining) +
                   " bytes into a frame header (a header is " + std::to_string(kFrameHeaderSize) +
                   " bytes): it was cut short, and every complete frame before this offset was "
                   "loaded");
    ++frames_lost_;  // the frame begun there (its record count unknown)
    open_gap(pos_, "the file was cut inside a frame header");
  }
  done_ = true;
}

// Reads and checks the frame header at pos_, whose frame must fit in the
// remaining bytes. False when there is no frame to read here: after a read
// error or a frame cut short (reading ends), or on a damaged header (reading
// moves on to the next intact frame).
bool TraceReader::read_frame_header(uint64_t remaining, FrameHeader& h) {
  uint8_t hb[kFrameHeaderSize];
  if (!source_->read(pos_, kFrameHeaderSize, hb)) {
    error(pos_, "read error");
    done_ = true;
    return false;
  }
  std::string why;
  if (!decode_frame_header(hb, h, why)) {
    error(pos_, why + "; looking for the next intact frame");
    open_gap(pos_, "damaged bytes (" + why + ")");
    resync(pos_ + 1);
    return false;
  }
  if (h.stored_size > remaining - kFrameHeaderSize) {
    warn(pos_, "the file ends inside " + frame_label(h) + ", which needs " +
                   std::to_string(h.stored_size) + " payload bytes but only " +
                   std::to_string(remaining - kFrameHeaderSize) +
                   " remain: the file was cut short (killed or crashed writer?); the " +
                   std::to_string(seen_.size()) + " frames before were loaded");
    ++frames_lost_;
    records_lost_ += h.record_count;
    lose(h, pos_, "the file ends inside this frame (cut short)");
    done_ = true;
    return false;
  }
  return true;
}

// Warns about frames missing or repeated before this one.
void TraceReader::check_sequence(const FrameHeader& h, uint64_t at) {
  if (h.sequence > expected_sequence_) {
    open_gap(at, "frames " + std::to_string(expected_sequence_) + " to " +
                     std::to_string(h.sequence - 1) + " are missing");
  }
  if (h.sequence != expected_sequence_) {
    warn(at, h.sequence > expected_sequence_
                 ? "frames " + std::to_string(expected_sequence_) + " to " +
                       std::to_string(h.sequence - 1) + " are missing before " + frame_label(h)
                 : frame_label(h) + " repeats a sequence number (expected " +
                       std::to_string(expected_sequence_) + ")");
  }
  expected_sequence_ = static_cast<int64_t>(h.sequence) + 1;
}

// Fills frame from the payload in raw_. False when the frame is skipped: a
// metadata frame that is not a JSON object, or a type this reader does not know.
bool TraceReader::decode_frame(const FrameHeader& h, uint64_t at, Frame& frame) {
  frame.header = h;
  frame.offset = at;
  frame.records.clear();
  frame.metadata = nullptr;
  if (h.type == FrameType::Metadata) return decode_metadata(h, at, frame);
  if (h.type == FrameType::Events || h.type == FrameType::Footer) {
    decode_records(h, at, frame);
    return true;
  }
  warn(at, frame_label(h) + " has a type this reader does not know (newer writer?); skipped");
  return false;
}

// A metadata frame: its keys are merged into metadata_.
bool TraceReader::decode_metadata(const FrameHeader& h, uint64_t at, Frame& frame) {
  std::string err;
  if (!parse_metadata(raw_.data(), raw_.size(), frame.metadata, err)) {
    error(at, frame_label(h) + ": " + err + "; the frame was skipped");
    ++frames_lost_;
    return false;
  }
  for (auto& [key, value] : frame.metadata.items()) metadata_[key] = value;
  return true;
}

// An events or footer frame: its records, with warnings about what did not
// decode cleanly. The records before a decoding error are kept.
void TraceReader::decode_records(const FrameHeader& h, uint64_t at, Frame& frame) {
  const DecodeResult res = decode_payload(raw_.data(), raw_.size(), frame.records);
  if (!res.ok) {
    error(at, frame_label(h) + ": " + res.error + " (byte " + std::to_string(res.error_offset) +
                  " of the decompressed payload); the records before it were kept");
    lose(h, at, "part of the frame does not decode (" + res.error + ")");
  } else if (frame.records.size() != h.record_count) {
    warn(at, frame_label(h) + " header says " + std::to_string(h.record_count) +
                 " records, the payload holds " + std::to_string(frame.records.size()));
  }
  if (res.out_of_range > 0) {
    warn(at, frame_label(h) + ": " + std::to_string(res.out_of_range) +
                 " values too large for their field (first in " + res.out_of_range_field +
                 "); they were truncated");
  }
  if (h.type == FrameType::Events && res.ok) {
    check_time_range(h, at, frame.records,
                     res.unknown_sections == 0 && header_.minor <= kFormatMinor);
  }
  if (h.type == FrameType::Events && keep_)
    keep_->add(h.compression, stored_, raw_, res, frame.records);
  if (res.unknown_sections > 0 && !unknown_kinds_reported_) {
    unknown_kinds_reported_ = true;
    warn(at, frame_label(h) + ": " + std::to_string(res.unknown_sections) +
                 " sections of record kinds this reader does not know (newer writer?); kept as "
                 "plain columns (reported for the first such frame only)");
  }
  if (h.type == FrameType::Footer) {
    check_footer(frame.records, at);
    footer_seen_ = true;
    footer_offset_ = at;
  }
}

// An events frame header's t_min/t_max must be its records' time range
// (tools read it for spans and indexes). Records whose times lie outside it
// contradict it, and so does a wider range when this reader knows every kind
// and field of the frame (unknown ones may hold the times that widen it).
// One warning per file, counting the frames, with the first as the example.
void TraceReader::check_time_range(const FrameHeader& h, uint64_t at, const RecordBatch& records,
                                   bool all_fields_known) {
  const auto range = time_range(records);
  const bool outside = range && (range->first < h.t_min || range->second > h.t_max);
  const bool wider = all_fields_known && (range ? h.t_min < range->first || h.t_max > range->second
                                                : h.t_min != 0 || h.t_max != 0);
  if (!outside && !wider) return;
  if (bad_time_ranges_++ == 0) {
    time_range_warning_ = diagnostics_.size();
    time_range_example_ =
        frame_label(h) + ": header " + std::to_string(h.t_min) + " to " + std::to_string(h.t_max) +
        " ns, records " +
        (range ? std::to_string(range->first) + " to " + std::to_string(range->second) + " ns"
               : std::string("without times"));
    warn(at, "");
  }
  diagnostics_[time_range_warning_].message =
      std::to_string(bad_time_ranges_) +
      " events frames give a time range (header t_min/t_max) that contradicts their records, "
      "e.g. " +
      time_range_example_ + "; the records' times are used";
}

bool TraceReader::read_payload(const FrameHeader& h, uint64_t at, std::vector<uint8_t>& raw) {
  stored_.resize(h.stored_size);
  if (!source_->read(at + kFrameHeaderSize, h.stored_size, stored_.data())) {
    error(at, frame_label(h) + ": read error");
    payload_problem_ = "read error";
    return false;
  }
  const uint32_t crc = crc32_of(stored_.data(), stored_.size());
  if (crc != h.payload_crc) {
    error(at, frame_label(h) + ": payload checksum mismatch (header " + hex32(h.payload_crc) +
                  ", data " + hex32(crc) + "): the frame is corrupt; its " +
                  std::to_string(h.record_count) + " records were skipped");
    payload_problem_ = "payload checksum mismatch";
    return false;
  }
  if (h.compression == Compression::None) {
    if (h.stored_size != h.raw_size) {
      error(at, frame_label(h) + ": uncompressed frame with stored size " +
                    std::to_string(h.stored_size) + " != raw size " + std::to_string(h.raw_size));
      payload_problem_ = "sizes that disagree";
      return false;
    }
    raw.swap(stored_);
    return true;
  }
  if (h.compression != Compression::Zstd) {
    error(at, frame_label(h) + ": unknown compression " +
                  std::to_string(static_cast<int>(h.compression)) + "; skipped");
    payload_problem_ = "an unknown compression";
    return false;
  }
  raw.resize(h.raw_size);
  const size_t n = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_), raw.data(), raw.size(),
                                       stored_.data(), stored_.size());
  if (ZSTD_isError(n) || n != h.raw_size) {
    error(at, frame_label(h) + ": cannot decompress (" +
                  (ZSTD_isError(n)
                       ? std::string(ZSTD_getErrorName(n))
                       : std::to_string(n) + " bytes instead of " + std::to_string(h.raw_size)) +
                  "); skipped");
    payload_problem_ = "a payload that does not decompress";
    return false;
  }
  return true;
}

bool TraceReader::resync(uint64_t from) {
  const uint64_t size = source_->size();
  std::vector<uint8_t> window(1 << 16);
  for (uint64_t at = from; at + kFrameHeaderSize <= size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(window.size(), size - at));
    if (!source_->read(at, n, window.data())) break;
    for (size_t i = 0; i + kFrameHeaderSize <= n; ++i) {
      if (window[i] != static_cast<uint8_t>(kFrameMagic[0]) ||
          std::memcmp(&window[i], kFrameMagic, 4) != 0) {
        continue;
      }
      FrameHeader h;
      std::string why;
      if (decode_frame_header(&window[i], h, why)) {
        warn(from - 1, "skipped " + std::to_string(at + i - (from - 1)) +
                           " damaged bytes; reading resumes at offset " + std::to_string(at + i));
        pos_ = at + i;
        return true;
      }
    }
    at += n - (kFrameHeaderSize - 1);
  }
  warn(from - 1, "no intact frame after this offset; the last " +
                     std::to_string(size - (from - 1)) + " bytes were skipped");
  pos_ = size;
  done_ = true;
  return false;
}

// The file ends where a frame would start: warns if it was not finished.
void TraceReader::end_of_data() {
  if (footer_seen_) {
    warn(pos_, "the file ends after the footer without its " + std::to_string(kTrailerSize) +
                   "-byte trailer; every frame was loaded");
  } else {
    warn(source_->size(),
         "no footer: the trace was not finished (the program was killed or crashed before the "
         "recorder finished); every complete frame was loaded");
  }
  done_ = true;
}

void TraceReader::check_footer(const RecordBatch& footer, uint64_t at) {
  uint64_t missing = 0, missing_records = 0;
  for (const ChunkIndexRecord& e : footer.get<ChunkIndexRecord>()) {
    // seen_ is in file order: offsets only grow.
    const auto it =
        std::lower_bound(seen_.begin(), seen_.end(), e.offset,
                         [](const ChunkIndexRecord& s, uint64_t off) { return s.offset < off; });
    const bool read = it != seen_.end() && it->offset == e.offset;
    if (!read) {
      ++missing;
      missing_records += e.records;
    }
  }
  if (missing > 0) {
    warn(at, "the footer lists " + std::to_string(missing) + " frames (" +
                 std::to_string(missing_records) + " records) that could not be read");
  }
}

}  // namespace legato::trace
