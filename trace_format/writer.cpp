#include "trace_format/writer.hpp"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include "trace_format/file_create.hpp"

namespace legato::trace {

TraceWriter::TraceWriter(const std::string& path, WriterOptions options)
    : path_(path),
      options_(options),
      chunk_limit_(std::min<size_t>(options.chunk_bytes, kMaxRawFrameBytes / 2)) {
  // A new file replaces an earlier run's (or a link planted at the path),
  // never writing through it; it is at its path before its first byte.
  fd_ = open_replacing(path);
  if (fd_ < 0) {
    throw TraceError("cannot create trace file '" + path + "': " + std::strerror(-fd_) +
                     "; check that the directory exists and is writable");
  }
  cctx_ = ZSTD_createCCtx();
  if (cctx_ == nullptr) {
    ::close(fd_);
    throw TraceError("cannot write '" + path + "': out of memory creating the zstd compressor");
  }
  uint8_t header[kFileHeaderSize];
  encode_file_header(FileHeader{}, header);
  try {
    write_all(header, sizeof header, nullptr, 0);
  } catch (const TraceError&) {
    ::close(fd_);
    ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
    throw;
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
  if (fd_ >= 0) ::close(fd_);
  ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
}

void TraceWriter::write_metadata(const nlohmann::json& object) {
  if (failed_ || finished_) return;
  if (!object.is_object()) throw std::invalid_argument("trace metadata must be a JSON object");
  raw_.clear();
  const std::string text = object.dump();
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
  chunk_.for_each_count([&](uint32_t kind, uint64_t n) { kind_counts_[kind] += n; });
  raw_.clear();
  chunk_.finish(raw_);
  write_frame(FrameType::Events, raw_, static_cast<uint32_t>(records), t_min, t_max);
}

void TraceWriter::finish() {
  if (failed_ || finished_) return;
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
  if (::close(fd_) != 0) {
    const int err = errno;
    fd_ = -1;
    fail("closing", err);
  }
  fd_ = -1;
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

void TraceWriter::fail(const std::string& what, int err) {
  failed_ = true;
  throw TraceError("error " + what + " trace file '" + path_ + "': " + std::strerror(err) +
                   "; the file keeps the " + std::to_string(index_.size()) +
                   " frames written before (" + std::to_string(offset_) + " bytes)");
}

}  // namespace legato::trace
