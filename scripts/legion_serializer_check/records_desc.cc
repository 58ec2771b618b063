// Descriptor records, MaxDimDesc first, then serializer.h's order from
// MapperName to TaskVariant. Each line sets one struct member and records the
// same value under the header line's field name (header order).
#include "driver_common.h"

void write_descriptor_records(LegionProfBinarySerializer& s, JsonOut& j)
{
  {  // Points and rects are written with LEGION_MAX_DIM (3) coordinates.
    Desc::MaxDimDesc d;
    j.begin("MaxDimDesc");
    j.u("max_dim", d.max_dim = LEGION_MAX_DIM);
    s.serialize(d);
  }
  {
    Desc::MapperName d;
    j.begin("MapperName");
    j.u("mapper_id", d.mapper_id = U32());
    j.u("mapper_proc", d.mapper_proc = U64());
    j.str("name", d.name = NAME("mapper"));
    s.serialize(d);
  }
  {
    Desc::MapperCallDesc d;
    j.begin("MapperCallDesc");
    j.u("kind", d.kind = U32());
    j.str("name", d.name = NAME("mapper-call"));
    s.serialize(d);
  }
  {
    Desc::RuntimeCallDesc d;
    j.begin("RuntimeCallDesc");
    j.u("kind", d.kind = U32());
    j.str("name", d.name = NAME("runtime-call"));
    s.serialize(d);
  }
  {
    Desc::MetaDesc d;
    j.begin("MetaDesc");
    j.u("kind", d.kind = U32());
    j.b("message", d.message = true);
    j.b("ordered_vc", d.ordered_vc = false);
    j.str("name", d.name = NAME("meta"));
    s.serialize(d);
  }
  {
    Desc::OpDesc d;
    j.begin("OpDesc");
    j.u("kind", d.kind = U32());
    j.str("name", d.name = NAME("op"));
    s.serialize(d);
  }
  {  // An irregular pattern, so that swapped flags show.
    Desc::RuntimeConfig d;
    j.begin("RuntimeConfig");
    j.b("debug", d.debug = true);
    j.b("spy", d.spy = false);
    j.b("gc", d.gc = false);
    j.b("inorder", d.inorder = true);
    j.b("safe_mapper", d.safe_mapper = true);
    j.b("safe_runtime", d.safe_runtime = false);
    j.b("safe_ctrlrepl", d.safe_ctrlrepl = true);
    j.b("part_checks", d.part_checks = false);
    j.b("bounds_checks", d.bounds_checks = false);
    j.b("resilient", d.resilient = true);
    s.serialize(d);
  }
  {
    Desc::MachineDesc d;
    j.begin("MachineDesc");
    j.u("node_id", d.node_id = U32());
    j.u("num_nodes", d.num_nodes = U32());
#if STUB_PROF_VERSION < 1009
    j.u("version", d.version = U32());
#endif
    const char* host = NAME("host");
    snprintf(d.process_info.hostname, sizeof(d.process_info.hostname), "%s",
             host);
    j.str("hostname", host);
    j.u("host_id", d.process_info.hostid = U64());
    j.u("process_id", d.process_info.processid = U32());
    s.serialize(d);
  }
  {
    Desc::ZeroTime d;
    j.begin("ZeroTime");
    j.s("zero_time", d.zero_time = TS());
    s.serialize(d);
  }
  {  // long long: a negative value checks the sign.
    Desc::CalibrationErr d;
    j.begin("CalibrationErr");
    j.s("calibration_err", d.calibration_err = -(long long)U32());
    s.serialize(d);
  }
  {
    Desc::Provenance d;
    j.begin("Provenance");
    j.u("provenance", d.pid = U64());
    j.str("prov", d.provenance = NAME("provenance"));
#if STUB_PROF_VERSION < 1012
    d.size = strlen(d.provenance);  // Legion writes size + 1 bytes
#endif
    s.serialize(d);
  }
  {  // dim 2 of max 3: Legion still writes all LEGION_MAX_DIM coordinates.
    LegionProfInstance::IndexSpacePointDesc d;
    j.begin("IndexSpacePointDesc");
    j.u("unique_id", d.unique_id = U64());
    j.u("dim", d.dim = 2);
    d.points[0] = -(long long)U32();
    d.points[1] = TS();
    d.points[2] = 0;
    j.hex("rem", d.points, sizeof(d.points));
    s.serialize(d);
  }
  {  // rem: rect_lo[0..2] then rect_hi[0..2]
    LegionProfInstance::IndexSpaceRectDesc d;
    j.begin("IndexSpaceRectDesc");
    j.u("unique_id", d.unique_id = U64());
    j.u("dim", d.dim = 3);
    for (int i = 0; i < LEGION_MAX_DIM; i++) d.rect_lo[i] = -(long long)U32();
    for (int i = 0; i < LEGION_MAX_DIM; i++) d.rect_hi[i] = TS();
    std::string lo_hi(reinterpret_cast<const char*>(d.rect_lo),
                      sizeof(d.rect_lo));
    lo_hi.append(reinterpret_cast<const char*>(d.rect_hi), sizeof(d.rect_hi));
    j.hex("rem", lo_hi.data(), lo_hi.size());
    s.serialize(d);
  }
  {
    LegionProfInstance::IndexSpaceEmptyDesc d;
    j.begin("IndexSpaceEmptyDesc");
    j.u("unique_id", d.unique_id = U64());
    s.serialize(d);
  }
  {
    LegionProfInstance::FieldDesc d;
    j.begin("FieldDesc");
    j.u("unique_id", d.unique_id = U64());
    j.u("field_id", d.field_id = U32());
    j.u("size", d.size = U64());
    j.str("name", d.name = NAME("field"));
    s.serialize(d);
  }
  {
    LegionProfInstance::FieldSpaceDesc d;
    j.begin("FieldSpaceDesc");
    j.u("unique_id", d.unique_id = U64());
    j.str("name", d.name = NAME("field-space"));
    s.serialize(d);
  }
  {
    LegionProfInstance::IndexPartDesc d;
    j.begin("PartDesc");
    j.u("unique_id", d.unique_id = U64());
    j.str("name", d.name = NAME("index-part"));
    s.serialize(d);
  }
  {
    LegionProfInstance::IndexPartitionDesc d;
    j.begin("IndexPartitionDesc");
    j.u("parent_id", d.parent_id = U64());
    j.u("unique_id", d.unique_id = U64());
    j.b("disjoint", d.disjoint = true);
    j.u("point0", d.point = U64());
    s.serialize(d);
  }
  {
    LegionProfInstance::IndexSpaceDesc d;
    j.begin("IndexSpaceDesc");
    j.u("unique_id", d.unique_id = U64());
    j.str("name", d.name = NAME("index-space"));
    s.serialize(d);
  }
  {
    LegionProfInstance::IndexSubSpaceDesc d;
    j.begin("IndexSubSpaceDesc");
    j.u("parent_id", d.parent_id = U64());
    j.u("unique_id", d.unique_id = U64());
    s.serialize(d);
  }
  {
    LegionProfInstance::LogicalRegionDesc d;
    j.begin("LogicalRegionDesc");
    j.u("ispace_id", d.ispace_id = U64());
    j.u("fspace_id", d.fspace_id = U64());
    j.u("tree_id", d.tree_id = U32());
    j.str("name", d.name = NAME("region"));
    s.serialize(d);
  }
  {
    LegionProfInstance::PhysicalInstRegionDesc d;
    j.begin("PhysicalInstRegionDesc");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("ispace_id", d.ispace_id = U64());
    j.u("fspace_id", d.fspace_id = U64());
    j.u("tree_id", d.tree_id = U32());
    s.serialize(d);
  }
  {
    LegionProfInstance::PhysicalInstLayoutDesc d;
    j.begin("PhysicalInstLayoutDesc");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("field_id", d.field_id = U32());
    j.u("fspace_id", d.fspace_id = U64());
    j.b("has_align", d.has_align = true);
    j.u("eqk", d.eqk = EqualityKind(U32()));
    j.u("align_desc", d.alignment = U32());
    s.serialize(d);
  }
  {
    LegionProfInstance::PhysicalInstDimOrderDesc d;
    j.begin("PhysicalInstDimOrderDesc");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("dim", d.dim = U32());
    j.u("dim_kind", d.k = DimensionKind(U32()));
    s.serialize(d);
  }
#if STUB_PROF_VERSION >= 1011
  {
    LegionProfInstance::PhysicalInstanceSpaces d;
    j.begin("PhysicalInstanceSpaces");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("union_space", d.union_space = U64());
    j.u("piece_space", d.piece_space = U64());
    s.serialize(d);
  }
  // PhysicalInstanceUsage: redop is written only when mode == LEGION_REDUCE,
  // and stop == 0 is written as u64 max.
  struct UsageCase {
    PrivilegeMode mode;
    bool stop_zero;
    int32_t index;
  };
  const UsageCase cases[] = {
      {LEGION_REDUCE, false, int32_t(U32() & 0xffff)},
      {LEGION_READ_ONLY, false, int32_t(U32() & 0xffff)},
      {LEGION_READ_WRITE, true, -1},  // -1: Legion's default index
  };
  for (const UsageCase& c : cases) {
    LegionProfInstance::PhysicalInstanceUsage d;
    j.begin("PhysicalInstanceUsage");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("op_id", d.op_id = U64());
    j.u("start", d.start = TS());
    d.stop = c.stop_zero ? 0 : TS();
    j.u("stop", c.stop_zero ? ~0ULL : (unsigned long long)d.stop);
    j.u("index_expr", d.index_expr = U64());
    j.u("field", d.field = U32());
    d.index = c.index;
    j.u("index", uint32_t(d.index));  // declared unsigned:4
    j.u("mode", d.mode = c.mode);
    d.redop = 9;
    if (d.mode == LEGION_REDUCE)
      j.u("redop", d.redop);
    else
      j.null("redop");
    s.serialize(d);
  }
#else
  {
    LegionProfInstance::PhysicalInstanceUsage d;
    j.begin("PhysicalInstanceUsage");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("op_id", d.op_id = U64());
    j.u("index_id", d.index = U32());
    j.u("field_id", d.field = U32());
    s.serialize(d);
  }
#endif
  {
    LegionProfInstance::IndexSpaceSizeDesc d;
    j.begin("IndexSpaceSizeDesc");
    j.u("unique_id", d.id = U64());
    j.u("dense_size", d.dense_size = U64());
    j.u("sparse_size", d.sparse_size = U64());
    j.b("is_sparse", d.is_sparse = true);
    s.serialize(d);
  }
  {
    Desc::TaskKind d;
    j.begin("TaskKind");
    j.u("task_id", d.task_id = U32());
    j.str("name", d.name = NAME("task"));
    j.b("overwrite", d.overwrite = true);
    s.serialize(d);
  }
  {
    Desc::TaskVariant d;
    j.begin("TaskVariant");
    j.u("task_id", d.task_id = U32());
    j.u("variant_id", d.variant_id = U32());
    j.str("name", d.name = NAME("variant"));
    s.serialize(d);
  }
}
