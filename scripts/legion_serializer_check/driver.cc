// Driver: writes one Legion Prof binary log with Legion's real
// LegionProfBinarySerializer (serializer.cc of the commit under test) and,
// next to it, a JSON file listing every record written with the values the
// driver put in, keyed by the field names of the record's header line.
//
//   usage: driver OUT_BASENAME   -> OUT_BASENAME.prof, OUT_BASENAME.json
//
// One record of every kind the commit's writer has, in the order of the
// overloads in serializer.h, MaxDimDesc (max_dim 3) first. Exceptions:
// TaskWaitInfo twice (from the TaskInfo and the GPUTaskInfo overloads),
// TaskInfo and ImplicitTaskInfo from the same overload, CopyInstInfo,
// FillInstInfo and PartitionInstInfo through their parents, three
// PhysicalInstanceUsage records from format 1011 on, and CompletionQueueInfo
// given five preconditions so that it spills into a second record.
#include <cstdio>

#include "driver_common.h"

int main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT_BASENAME\n", argv[0]);
    return 2;
  }
  const std::string base = argv[1];
  JsonOut json;
  {
    // The constructor opens the file and writes the header (preamble).
    LegionProfBinarySerializer serializer(base + ".prof");
    write_descriptor_records(serializer, json);
    write_operation_records(serializer, json);
    write_machine_and_event_records(serializer, json);
  }  // the destructor flushes and closes the file
  if (!json.write(base + ".json", LEGION_PROF_VERSION)) {
    fprintf(stderr, "cannot write %s.json\n", base.c_str());
    return 1;
  }
  return 0;
}
