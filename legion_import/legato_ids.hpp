// How Legion's ids and times become Legato's: resource ids of lanes, item
// uids from Realm events, times (internal to legion_import/).
#pragma once

#include <cstdint>
#include <limits>

#include "legion_import/log_data.hpp"
#include "trace_format/records.hpp"

namespace legato::legion {

using trace::Time;
using trace::Uid;

// Local parts of resource ids (trace::make_resource_id(node, local)): a
// processor's is its Realm index (0..0xfff), the others lie above.
constexpr uint32_t kDeviceLane = 0x1000;   // + GPU index: its device lane
constexpr uint32_t kMemoryLane = 0x2000;   // + memory index (+ 0x100 for IB memories)
constexpr uint32_t kDepPartLane = 0x3000;  // the node's dependent-partitioning lane
constexpr uint32_t kChannelLane = 0x4000;  // + channel sequence
constexpr uint32_t kMaxChannels = 0xbfff;

inline uint32_t proc_resource(uint64_t proc) {
  return trace::make_resource_id(node_of_proc(proc), index_of_proc(proc));
}

// Item uids of items without an event of their own (calls, prof tasks)
// carry this bit, which Realm event ids never set in the uid's sequence.
constexpr uint64_t kSyntheticBit = uint64_t{1} << 47;
constexpr uint64_t kBarrierBit = uint64_t{1} << 46;  // with kSyntheticBit: a non-event id

inline Uid synthetic_uid(uint32_t node, uint64_t seq) {
  return trace::make_uid(node, kSyntheticBit | seq);
}
// Whether a uid was made by synthetic_uid (not from a Realm id).
inline bool is_synthetic(Uid uid) {
  return (uid & kSyntheticBit) != 0 && (uid & kBarrierBit) == 0;
}

// Item uids from Realm event ids, so that items of different nodes' files
// refer to each other: the creator node and the event's own bits (LEGION_FORMAT.md §3).
inline Uid event_uid(uint64_t e) {
  if (e == 0) return 0;
  if (e >> 63)
    return trace::make_uid(static_cast<uint32_t>((e >> 47) & 0xffff), e & (kSyntheticBit - 1));
  // Barriers and other ids: node in 59..44.
  return trace::make_uid(static_cast<uint32_t>((e >> 44) & 0xffff),
                         kSyntheticBit | kBarrierBit | (e & ((uint64_t{1} << 44) - 1)));
}

inline Time to_time(uint64_t t) {
  return t > static_cast<uint64_t>(std::numeric_limits<Time>::max())
             ? std::numeric_limits<Time>::max()
             : static_cast<Time>(t);
}

}  // namespace legato::legion
