#include "trace_format/stored_frames.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <zstd.h>

namespace legato::trace {

StoredFrames::StoredFrames(KindSet kinds, uint64_t bytes) : kinds_(kinds) {
  // Address space only: pages are touched as frames arrive. A file bigger
  // than the system lets one mapping be grows its room as it is read.
  try {
    bytes_.reserve(bytes);
  } catch (const std::exception&) {
  }
}

void StoredFrames::add(Compression compression, std::span<const uint8_t> stored,
                       std::span<const uint8_t> raw, const DecodeResult& decoded,
                       const RecordBatch& records) {
  // A frame that stopped decoding partway keeps the sections before the
  // fault, uncompressed, so that decoding it again stops nowhere.
  const bool whole = decoded.ok && compression == Compression::Zstd;
  const std::span<const uint8_t> kept = whole ? stored : raw.first(decoded.sections_end);
  Kept k;
  k.at = bytes_.size();
  k.size = static_cast<uint32_t>(kept.size());
  k.raw_size = static_cast<uint32_t>(whole ? raw.size() : kept.size());
  k.compression = whole ? Compression::Zstd : Compression::None;
  records.for_each_kind([&](const auto& table) {
    using R = typename std::remove_cvref_t<decltype(table)>::value_type;
    if (!(kinds_ & kinds_of<R>()) || table.empty()) return;
    counts_[static_cast<uint32_t>(R::kKind)] += table.size();
    k.kinds |= kinds_of<R>();
  });
  bytes_.insert(bytes_.end(), kept.begin(), kept.end());
  frames_.push_back(k);
}

namespace {

// One thread's decompressor and buffer, kept from frame to frame.
struct Scratch {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx{ZSTD_createDCtx(), ZSTD_freeDCtx};
  std::vector<uint8_t> raw;
};

Scratch& scratch() {
  thread_local Scratch s;
  if (!s.dctx) throw std::bad_alloc();
  return s;
}

}  // namespace

void StoredFrames::decode_frame(size_t i, KindSet kinds, RecordBatch& batch) const {
  const Kept& k = frames_.at(i);
  kinds &= k.kinds;
  if (kinds == 0) return;
  const uint8_t* data = bytes_.data() + k.at;
  if (k.compression == Compression::Zstd) {
    Scratch& s = scratch();
    s.raw.resize(k.raw_size);
    const size_t n = ZSTD_decompressDCtx(s.dctx.get(), s.raw.data(), s.raw.size(), data, k.size);
    if (ZSTD_isError(n) || n != k.raw_size) {
      throw std::runtime_error("a trace frame kept in memory no longer decompresses (" +
                               std::string(ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")");
    }
    data = s.raw.data();
  }
  const DecodeResult res = decode_payload(data, k.raw_size, batch, kinds);
  if (!res.ok)
    throw std::runtime_error("a trace frame kept in memory no longer decodes: " + res.error);
}

}  // namespace legato::trace
