// Streaming reader: one frame at a time, never the whole file in memory.
// Damage never stops it: a corrupt frame is reported (file, byte offset,
// what was expected) and skipped, the reader finds the next intact frame,
// and a file cut short yields every complete frame before the cut.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace_format/byte_source.hpp"
#include "trace_format/frame.hpp"
#include "trace_format/lost_span.hpp"
#include "trace_format/record_batch.hpp"
#include "trace_format/stored_frames.hpp"

namespace legato::trace {

struct Diagnostic {
  enum class Severity { Warning, Error };
  Severity severity = Severity::Warning;
  uint64_t offset = 0;  // byte offset in the file
  std::string message;
  // "<file>: offset N: warning: <message>"
  std::string format(const std::string& file) const;
};

struct Frame {
  FrameHeader header;
  uint64_t offset = 0;      // where the frame header starts
  RecordBatch records;      // events and footer frames
  nlohmann::json metadata;  // metadata frames (a JSON object)
};

class TraceReader {
 public:
  // Throw TraceError (naming the file and what was wrong) when the file
  // cannot be read at all: missing, not a trace, newer major version.
  static std::unique_ptr<TraceReader> open(const std::string& path);
  static std::unique_ptr<TraceReader> open(std::unique_ptr<ByteSource> source, std::string name);
  ~TraceReader();

  // The next intact frame; false at the end of the file.
  bool next(Frame& frame);
  // From now on, every events frame next() gives is also kept in `to`
  // (null: none is), which must outlive the reading.
  void keep_frames(StoredFrames* to) { keep_ = to; }

  const std::string& name() const { return name_; }
  const FileHeader& header() const { return header_; }
  uint64_t file_size() const { return source_->size(); }
  // Metadata frames read so far, merged key by key (later wins).
  const nlohmann::json& metadata() const { return metadata_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  bool has_errors() const;
  // After the last next(): whether the file ended with a footer and trailer.
  bool finished_cleanly() const { return clean_end_; }
  // Frames whose payload could not be used, and the records they claimed.
  uint64_t frames_lost() const { return frames_lost_; }
  uint64_t records_lost() const { return records_lost_; }
  // Part of the file could not be used: a frame lost (corrupt, or cut short
  // inside it) or an error reported. A file that merely ends early (no
  // footer) or holds inconsistent records has warnings only.
  bool lost_data() const { return frames_lost_ > 0 || has_errors(); }
  // Where in time the lost records were (after the last next()).
  const std::vector<LostSpan>& lost_spans() const { return lost_spans_; }

 private:
  TraceReader(std::unique_ptr<ByteSource> source, std::string name);
  // The steps of next().
  void end_of_data();
  void read_trailer(uint64_t remaining);
  bool read_frame_header(uint64_t remaining, FrameHeader& h);
  void check_sequence(const FrameHeader& h, uint64_t at);
  bool read_payload(const FrameHeader& h, uint64_t at, std::vector<uint8_t>& raw);
  bool decode_frame(const FrameHeader& h, uint64_t at, Frame& frame);
  bool decode_metadata(const FrameHeader& h, uint64_t at, Frame& frame);
  void decode_records(const FrameHeader& h, uint64_t at, Frame& frame);
  void check_time_range(const FrameHeader& h, uint64_t at, const RecordBatch& records,
                        bool all_fields_known);
  bool resync(uint64_t from);
  void check_footer(const RecordBatch& footer, uint64_t at);
  // A lost stretch whose end is known once the next intact events frame is
  // read (or the file ends).
  void open_gap(uint64_t offset, std::string why);
  void close_gap(Time to);
  void lose(const FrameHeader& h, uint64_t at, std::string why);
  void warn(uint64_t offset, std::string message);
  void error(uint64_t offset, std::string message);

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  FileHeader header_;
  nlohmann::json metadata_ = nlohmann::json::object();
  std::vector<Diagnostic> diagnostics_;
  uint64_t pos_ = 0;
  bool done_ = false;
  bool clean_end_ = false;
  bool footer_seen_ = false;
  bool unknown_kinds_reported_ = false;
  uint64_t footer_offset_ = 0;
  int64_t expected_sequence_ = 0;
  uint64_t frames_lost_ = 0, records_lost_ = 0;
  uint64_t bad_time_ranges_ = 0;   // events frames whose header range contradicts their records
  size_t time_range_warning_ = 0;  // their diagnostic (one per file), once bad_time_ranges_ > 0
  std::string time_range_example_;
  std::vector<ChunkIndexRecord> seen_;  // frames read, to check against the footer
  std::vector<LostSpan> lost_spans_;
  std::optional<LostSpan> gap_;             // open: its end not known yet
  Time last_t_max_ = LostSpan::kFromStart;  // the last intact events frame's end
  std::string payload_problem_;             // why read_payload refused a frame
  std::vector<uint8_t> stored_, raw_;
  StoredFrames* keep_ = nullptr;
  void* dctx_ = nullptr;  // ZSTD_DCtx
};

// Parses a metadata payload: a JSON object nested at most kMaxMetadataDepth
// deep. Returns false with a reason on anything else.
bool parse_metadata(const uint8_t* data, size_t size, nlohmann::json& out, std::string& error);

}  // namespace legato::trace
