#include "tensor/meta.h"

namespace fx {
namespace {
thread_local bool g_meta = false;
}  // namespace

bool meta_mode() { return g_meta; }

MetaScope::MetaScope() : previous_(g_meta) { g_meta = true; }
MetaScope::~MetaScope() { g_meta = previous_; }

void throw_data_dependent() {
  throw DataDependent("the result depends on tensor values, which shape inference does not have");
}

}  // namespace fx
