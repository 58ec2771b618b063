#include "trace_format/writer.hpp"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include "base/file_create.hpp"
#include "trace_format/metadata.hpp"
#include "trace_format/reader.hpp"

namespace legato::trace {

namespace {

TraceError cannot_create(const std::string& path, int err) {
  return TraceError(
      "cannot create trace file '" + path + "': " + std::strerror(err) +
          (err == ENOSPC || err == EDQUOT ? "; free space on that file system or write elsewhere"
                                          : "; check that the directory exists and is writable"),
      err);
}

// " (run ID of PROGRAM, pid N on HOST)" from the metadata of the trace at
// path, or "" when it has none yet.
std::string describe_run(const std::string& path) {
  try {
    auto reader = TraceReader::open(path);
    Frame frame;
    for (int i = 0; i < 2 && !reader->metadata().contains("run") && reader->next(frame);) ++i;
    std::vector<std::string> problems;
    const RunInfo run = RunInfo::from_json(reader->metadata(), problems);
    if (run.id.empty()) return "";
    return " (run " + run.id + " of " + run.program + ", pid " + std::to_string(run.pid) + " on " +
           run.host + ")";
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

bool TraceError::no_space() const {
  return code_ == ENOSPC || code_ == EDQUOT || code_ == EFBIG;
}

TraceWriter::TraceWriter(const std::string& path, WriterOptions options,
                         const nlohmann::json* first_metadata)
    : path_(path),
      options_(options),
      chunk_limit_(std::min<size_t>(options.chunk_bytes, kMaxRawFrameBytes / 2)) {
  options_.max_frame_records = std::max<uint32_t>(options_.max_frame_records, 1);
  // A FIFO would block the open until someone reads it (a run that hangs
  // at its start), a device would take the trace nowhere: refused unopened.
  if (const std::string kind = base::special_file(path); !kind.empty()) {
    throw TraceError("cannot create trace file '" + path + "': " + base::not_a_file_reason(kind) +
                         "; remove it or write the trace elsewhere",
                     kind == "a directory" ? EISDIR : ENXIO, /*not_a_file=*/true);
  }
  base::NewFile file;
  try {
    file = base::create_beside(path);
  } catch (const std::system_error& e) {
    throw cannot_create(path, e.code().value());
  }
  fd_ = file.fd;
  const auto abandon = [&] {
    ::close(fd_);
    fd_ = -1;
    ::unlink(file.temp_path.c_str());
    ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
    cctx_ = nullptr;
  };
  cctx_ = ZSTD_createCCtx();
  if (cctx_ == nullptr) {
    abandon();
    throw TraceError("cannot write '" + path + "': out of memory creating the zstd compressor");
  }
  reserving_ = options_.reserve_bytes > 0;
  // The header and the first metadata are in the file before it is at its
  // path: a run killed at any moment leaves them, or the earlier file.
  try {
    uint8_t header[kFileHeaderSize];
    encode_file_header(FileHeader{}, header);
    keep_reserve(sizeof header);
    write_all(header, sizeof header, nullptr, 0);
    if (first_metadata != nullptr) write_metadata(*first_metadata);
  } catch (const TraceError& e) {
    abandon();
    throw cannot_create(path, e.code() != 0 ? e.code() : EIO);
  }
  if (const int err = base::replace_unless_busy(file, path); err != 0) {
    abandon();
    if (err != EBUSY) throw cannot_create(path, err);
    throw TraceError("another run is still writing the trace file '" + path + "'" +
                         describe_run(path) +
                         "; wait for it to end, or write this run's trace elsewhere",
                     EBUSY);
  }
}

TraceWriter::~TraceWriter() {
  if (!finished_ && !failed_) {
    try {
      finish();
    } catch (const TraceError&) {
      // Already reported by the failing call's caller; the file holds a valid prefix.
    }
  }
  give_back_reserve();
  if (fd_ >= 0) ::close(fd_);
  ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
}

void TraceWriter::write_metadata(const nlohmann::json& object) {
  if (failed_ || finished_) return;
  if (!object.is_object()) throw std::invalid_argument("trace metadata must be a JSON object");
  raw_.clear();
  const std::string text = escape_strings(object).dump();
  raw_.append(text.data(), text.size());
  write_frame(FrameType::Metadata, raw_, 0, 0, 0);
}

uint32_t TraceWriter::intern(std::string_view s) {
  if (s.empty()) return 0;
  auto [it, inserted] =
      strings_.try_emplace(std::string(s), static_cast<uint32_t>(strings_.size() + 1));
  if (inserted) add(StringRecord{it->second, it->first});
  return it->second;
}

void TraceWriter::flush() {
  if (failed_ || finished_ || chunk_.empty()) return;
  const auto [t_min, t_max] = chunk_.time_range();
  const uint64_t records = chunk_.records();
  std::map<uint32_t, uint64_t> counts;
  chunk_.for_each_count([&](uint32_t kind, uint64_t n) { counts[kind] = n; });
  raw_.clear();
  chunk_.finish(raw_);
  write_frame(FrameType::Events, raw_, static_cast<uint32_t>(records), t_min, t_max);
  for (const auto& [kind, n] : counts) kind_counts_[kind] += n;
}

void TraceWriter::close_in_fork() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  finished_ = true;  // nothing more from this process, its destructor included
}

void TraceWriter::finish() {
  if (failed_ || finished_) return;
  try {
    write_footer();
  } catch (const TraceError&) {
    failed_ = true;  // the last attempt: later calls do nothing
    throw;
  }
  if (::close(fd_) != 0) {
    const int err = errno;
    fd_ = -1;
    fail("closing", err);
  }
  fd_ = -1;
}

void TraceWriter::write_footer() {
  flush();
  ChunkEncoder footer;
  for (const auto& entry : index_) footer.add(entry);
  for (const auto& [kind, count] : kind_counts_) footer.add(KindCountRecord{kind, count});
  const uint64_t footer_offset = offset_;
  const uint64_t records = footer.records();
  raw_.clear();
  footer.finish(raw_);
  write_frame(FrameType::Footer, raw_, static_cast<uint32_t>(records), 0, 0);
  uint8_t trailer[kTrailerSize];
  encode_trailer(footer_offset, trailer);
  write_all(trailer, sizeof trailer, nullptr, 0);
  finished_ = true;
  give_back_reserve();
}

// The reserve past the end goes back to the file system (a failure only keeps it).
void TraceWriter::give_back_reserve() {
  if (fd_ < 0 || reserved_to_ <= offset_) return;
  [[maybe_unused]] const int rc = ::ftruncate(fd_, static_cast<off_t>(offset_));
  reserved_to_ = offset_;
}

void TraceWriter::write_frame(FrameType type, const ByteBuffer& raw, uint32_t records, Time t_min,
                              Time t_max) {
  if (raw.size() > kMaxRawFrameBytes) {
    throw std::length_error("trace frame of " + std::to_string(raw.size()) +
                            " bytes exceeds the format limit; flush more often");
  }
  FrameHeader h;
  h.type = type;
  h.raw_size = static_cast<uint32_t>(raw.size());
  h.record_count = records;
  h.sequence = static_cast<uint32_t>(index_.size());
  h.t_min = t_min;
  h.t_max = t_max;
  const uint8_t* stored = raw.data();
  size_t stored_size = raw.size();
  h.compression = Compression::None;
  if (options_.compress && !raw.empty()) {
    const size_t bound = ZSTD_compressBound(raw.size());
    compressed_.clear();
    uint8_t* dst = compressed_.grow(bound);
    const size_t n = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(cctx_), dst, bound, raw.data(),
                                       raw.size(), options_.zstd_level);
    if (ZSTD_isError(n)) {
      throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    }
    compressed_.commit(n);
    stored = compressed_.data();
    stored_size = n;
    h.compression = Compression::Zstd;
  }
  h.stored_size = static_cast<uint32_t>(stored_size);
  h.payload_crc = crc32_of(stored, stored_size);
  uint8_t header[kFrameHeaderSize];
  encode_frame_header(h, header);
  const uint64_t at = offset_;
  keep_reserve(at + sizeof header + stored_size);
  write_all(header, sizeof header, stored, stored_size);
  index_.push_back(ChunkIndexRecord{at, static_cast<uint8_t>(type), h.sequence, records,
                                    h.stored_size, t_min, t_max});
}

void TraceWriter::write_all(const void* a, size_t na, const void* b, size_t nb) {
  iovec iov[2] = {{const_cast<void*>(a), na}, {const_cast<void*>(b), nb}};
  int cnt = nb > 0 ? 2 : 1;
  iovec* v = iov;
  const uint64_t start = offset_;
  size_t left = na + nb;
  while (left > 0) {
    const ssize_t n = ::writev(fd_, v, cnt);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      // Drop the partial frame so the file stays a valid prefix.
      if (::ftruncate(fd_, static_cast<off_t>(start)) == 0)
        ::lseek(fd_, static_cast<off_t>(start), SEEK_SET);
      offset_ = start;
      fail("writing", err);
    }
    left -= static_cast<size_t>(n);
    size_t done = static_cast<size_t>(n);
    while (cnt > 0 && done >= v->iov_len) {
      done -= v->iov_len;
      ++v;
      --cnt;
    }
    if (cnt > 0) {
      v->iov_base = static_cast<uint8_t*>(v->iov_base) + done;
      v->iov_len -= done;
    }
  }
  offset_ = start + na + nb;
}

// Keeps reserve_bytes (plus room for the footer's index) allocated past
// `end`, in 1 MiB steps. When the disk cannot give that any more, the frame
// about to be written is refused (TraceError, no_space()) and from then on
// frames go into the reserve, which holds the last ones and the footer.
void TraceWriter::keep_reserve(uint64_t end) {
  if (!reserving_ || out_of_space_) return;
  const uint64_t want = end + options_.reserve_bytes + (index_.size() + 8) * 64;
  if (want <= reserved_to_) return;
  constexpr uint64_t kStep = 1 << 20;
  for (const uint64_t target : {(want + kStep - 1) / kStep * kStep, want}) {
    int rc;
    do {
      rc = ::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset_),
                       static_cast<off_t>(target - offset_));
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) {
      reserved_to_ = target;
      return;
    }
    if (errno != ENOSPC && errno != EDQUOT) {
      reserving_ = false;  // no fallocate on this file system: write without a reserve
      return;
    }
  }
  out_of_space_ = true;
  fail("reserving space for", ENOSPC);
}

void TraceWriter::fail(const std::string& what, int err) {
  TraceError e("error " + what + " trace file '" + path_ + "': " + std::strerror(err) +
                   "; the file keeps the " + std::to_string(index_.size()) +
                   " frames written before (" + std::to_string(offset_) + " bytes)",
               err);
  // Without space the writer can still finish the file; after anything else it stops.
  if (!e.no_space()) failed_ = true;
  throw e;
}

}  // namespace legato::trace
