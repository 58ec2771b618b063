// Shared pieces of the driver: the real Legion serializer header, the JSON
// recorder, and generators of distinctive, deterministic field values.
// Every generated value draws on one counter, so no two generated fields of
// the file share a value and a field read from the wrong place shows up.
#ifndef LEGION_SERIALIZER_CHECK_DRIVER_COMMON_H
#define LEGION_SERIALIZER_CHECK_DRIVER_COMMON_H

#include <deque>
#include <string>

#include "json_out.h"
#include "legion/tools/serializer.h"  // Legion's real header of the commit

using namespace Legion;
using namespace Legion::Internal;

#if STUB_PROF_VERSION >= 1012
typedef LegionProfiler Desc;  // descriptor records live in LegionProfiler
#else
typedef LegionProfDesc Desc;
#endif

inline unsigned long long next_k() {
  static unsigned long long k = 0;
  return ++k;
}
// 64-bit ids and sizes: high bits set, low bits distinct.
inline unsigned long long U64() {
  return 0x1122334455660000ULL + next_k();
}
// 32-bit ids, kinds and counts.
inline unsigned U32() {
  return 0x55660000u + unsigned(next_k());
}
// Timestamps (timestamp_t is long long; kept positive and increasing).
inline long long TS() {
  return (long long)(0x0011223344550000ULL + next_k());
}
// Events as Legion has them: a 64-bit Realm id, here with bit 63 set.
inline LgEvent EV() {
  LgEvent e;
  e.id = 0x8000000000000000ULL | (0x0000aabbccdd0000ULL + next_k());
  return e;
}
// Non-empty, distinct strings ("name-17"); storage lives to program end.
inline const char* NAME(const char* stem) {
  static std::deque<std::string> pool;
  pool.push_back(std::string(stem) + "-" + std::to_string(next_k()));
  return pool.back().c_str();
}

// The three groups of records, written in this order by main().
void write_descriptor_records(LegionProfBinarySerializer& s, JsonOut& j);
void write_operation_records(LegionProfBinarySerializer& s, JsonOut& j);
void write_machine_and_event_records(LegionProfBinarySerializer& s, JsonOut& j);

#endif
