// Leaf modules of several inputs: MaxUnpool{1,2,3}d (input, indices, output_size=None) and EmbeddingBag
// (input, offsets=None, per_sample_weights=None), each one call of its functional form with the
// module's hyperparameters (and EmbeddingBag's weight).
#include "nn/module_util.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

template <int kSp>
BoundModule bind_unpool(const ModuleBinding& b) {
  Hparams h(b);
  OpRef op("torch.nn.functional.max_unpool" + std::to_string(kSp) + "d");
  std::vector<std::pair<std::string, Object>> kw = {
      {"kernel_size", h.object("kernel_size")}, {"stride", h.object("stride")}, {"padding", h.object("padding")}};
  return [op, kw](const OpCall& call) -> Object {
    static const Schema schema("forward(input, indices, output_size=None)");
    Args a = schema.parse(call);
    auto kwargs = kw;
    kwargs.emplace_back("output_size", a[2]);
    return op({a[0], a[1]}, kwargs);
  };
}

BoundModule bind_embedding_bag(const ModuleBinding& b) {
  Hparams h(b);
  if (h.has("max_norm"))
    throw FxError("EmbeddingBag with max_norm is not supported (it renormalises the weight in place)");
  Tensor w = h.tensor("weight");
  OpRef op("torch.nn.functional.embedding_bag");
  std::vector<std::pair<std::string, Object>> kw = {
      {"mode", h.object("mode")},
      {"include_last_offset", Object(Value::boolean(h.boolean_or("include_last_offset", false)))},
      {"padding_idx", h.object("padding_idx")}};
  return [op, w, kw](const OpCall& call) -> Object {
    static const Schema schema("forward(input, offsets=None, per_sample_weights=None)");
    Args a = schema.parse(call);
    auto kwargs = kw;
    kwargs.emplace_back("offsets", a[1]);
    kwargs.emplace_back("per_sample_weights", a[2]);
    return op({a[0], w}, kwargs);
  };
}

const ModuleRegistrar reg_u1{{"torch.nn.modules.pooling.MaxUnpool1d"}, bind_unpool<1>};
const ModuleRegistrar reg_u2{{"torch.nn.modules.pooling.MaxUnpool2d"}, bind_unpool<2>};
const ModuleRegistrar reg_u3{{"torch.nn.modules.pooling.MaxUnpool3d"}, bind_unpool<3>};
const ModuleRegistrar reg_bag{{"torch.nn.modules.sparse.EmbeddingBag"}, bind_embedding_bag};

}  // namespace
}  // namespace fx
