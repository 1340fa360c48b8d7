// Leaf modules that are one op call with their hyperparameters: pooling, Upsample, padding,
// PixelShuffle, Embedding; and the ones that pass the input through or only reshape it (Identity,
// Dropout in eval, Flatten, Unflatten).
#include <algorithm>

#include "nn/module_util.h"
#include "ops/nn/nn_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

BoundModule bind_identity(const ModuleBinding&) {
  // Dropout's forward is the identity at inference (the exporter saves models in eval mode).
  return [](const OpCall& call) -> Object { return call.args.at(0); };
}

Tensor reshaped(const Tensor& x, const Shape& shape) { return view_as_shape(x.contiguous(), shape); }

BoundModule bind_flatten(const ModuleBinding& b) {
  Hparams h(b);
  const int64_t start = h.integer_or("start_dim", 1), end = h.integer_or("end_dim", -1);
  return [start, end](const OpCall& call) -> Object {
    const Tensor& x = call.args.at(0).tensor();
    if (x.dim() == 0) return reshaped(x, {1});
    const int64_t s = wrap_dim(start, x.dim()), e = wrap_dim(end, x.dim());
    if (s > e) throw FxError("flatten() has invalid args: start_dim cannot come after end_dim");
    Shape shape(x.shape().begin(), x.shape().begin() + s);
    int64_t n = 1;
    for (int64_t d = s; d <= e; ++d) n *= x.shape()[d];
    shape.push_back(n);
    shape.insert(shape.end(), x.shape().begin() + e + 1, x.shape().end());
    return reshaped(x, shape);
  };
}

BoundModule bind_unflatten(const ModuleBinding& b) {
  Hparams h(b);
  const int64_t dim = h.integer("dim");
  const std::vector<int64_t> sizes = h.ints("unflattened_size");
  return [dim, sizes](const OpCall& call) -> Object {
    const Tensor& x = call.args.at(0).tensor();
    const int64_t d = wrap_dim(dim, x.dim());
    std::vector<int64_t> sz = sizes;
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < sz.size(); ++i) {
      if (sz[i] == -1) infer = static_cast<int64_t>(i);
      else known *= sz[i];
    }
    if (infer >= 0) sz[infer] = known ? x.shape()[d] / known : 0;
    int64_t prod = 1;
    for (int64_t v : sz) prod *= v;
    if (prod != x.shape()[d])
      throw FxError("unflatten: Provided sizes " + shape_to_string(sizes) + " don't multiply up to the size of dim " +
                    std::to_string(dim) + " (" + std::to_string(x.shape()[d]) + ") in the input tensor");
    Shape shape(x.shape().begin(), x.shape().begin() + d);
    shape.insert(shape.end(), sz.begin(), sz.end());
    shape.insert(shape.end(), x.shape().begin() + d + 1, x.shape().end());
    return reshaped(x, shape);
  };
}

// A module whose forward is `target(input, **{kw: hparam})`. Plain constant data (a table of std::vector
// and std::string compiled to 18 KB of code).
struct CallSpec {
  const char* types[4];  // module classes after "torch.nn.modules." (unused entries null)
  const char* target;
  struct {
    const char* hparam;
    const char* keyword;
  } hp[6];
  struct {
    const char* keyword;
    const char* value;  // a string, or "True"
  } fixed[2];           // constant keywords (F.pad's mode)
};

#define FX_POOL(name, fn, ...) {{"pooling." name}, "torch.nn.functional." fn, {__VA_ARGS__}, {}}
const CallSpec kCallSpecs[] = {
    FX_POOL("MaxPool1d", "max_pool1d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"dilation", "dilation"}, {"ceil_mode", "ceil_mode"}, {"return_indices", "return_indices"}),
    FX_POOL("MaxPool2d", "max_pool2d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"dilation", "dilation"}, {"ceil_mode", "ceil_mode"}, {"return_indices", "return_indices"}),
    FX_POOL("AvgPool1d", "avg_pool1d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"ceil_mode", "ceil_mode"}, {"count_include_pad", "count_include_pad"}),
    FX_POOL("AvgPool2d", "avg_pool2d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"ceil_mode", "ceil_mode"}, {"count_include_pad", "count_include_pad"},
            {"divisor_override", "divisor_override"}),
    FX_POOL("AdaptiveAvgPool1d", "adaptive_avg_pool1d", {"output_size", "output_size"}),
    FX_POOL("AdaptiveAvgPool2d", "adaptive_avg_pool2d", {"output_size", "output_size"}),
    FX_POOL("AdaptiveMaxPool1d", "adaptive_max_pool1d", {"output_size", "output_size"},
            {"return_indices", "return_indices"}),
    FX_POOL("AdaptiveMaxPool2d", "adaptive_max_pool2d", {"output_size", "output_size"},
            {"return_indices", "return_indices"}),
    FX_POOL("MaxPool3d", "max_pool3d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"dilation", "dilation"}, {"ceil_mode", "ceil_mode"}, {"return_indices", "return_indices"}),
    FX_POOL("AvgPool3d", "avg_pool3d", {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"padding", "padding"},
            {"ceil_mode", "ceil_mode"}, {"count_include_pad", "count_include_pad"},
            {"divisor_override", "divisor_override"}),
    FX_POOL("AdaptiveAvgPool3d", "adaptive_avg_pool3d", {"output_size", "output_size"}),
    FX_POOL("AdaptiveMaxPool3d", "adaptive_max_pool3d", {"output_size", "output_size"},
            {"return_indices", "return_indices"}),
    {{"upsampling.Upsample"}, "torch.nn.functional.interpolate",
     {{"size", "size"}, {"scale_factor", "scale_factor"}, {"mode", "mode"}, {"align_corners", "align_corners"},
      {"recompute_scale_factor", "recompute_scale_factor"}}, {}},
    {{"upsampling.UpsamplingNearest2d"}, "torch.nn.functional.interpolate",
     {{"size", "size"}, {"scale_factor", "scale_factor"}}, {{"mode", "nearest"}}},
    {{"upsampling.UpsamplingBilinear2d"}, "torch.nn.functional.interpolate",
     {{"size", "size"}, {"scale_factor", "scale_factor"}}, {{"mode", "bilinear"}, {"align_corners", "True"}}},
    {{"padding.ZeroPad1d", "padding.ZeroPad2d", "padding.ConstantPad1d", "padding.ConstantPad2d"},
     "torch.nn.functional.pad", {{"padding", "pad"}, {"value", "value"}}, {{"mode", "constant"}}},
    {{"padding.ReflectionPad1d", "padding.ReflectionPad2d"}, "torch.nn.functional.pad", {{"padding", "pad"}},
     {{"mode", "reflect"}}},
    {{"padding.ReplicationPad1d", "padding.ReplicationPad2d"}, "torch.nn.functional.pad", {{"padding", "pad"}},
     {{"mode", "replicate"}}},
    {{"padding.CircularPad1d", "padding.CircularPad2d"}, "torch.nn.functional.pad", {{"padding", "pad"}},
     {{"mode", "circular"}}},
    {{"pixelshuffle.PixelShuffle"}, "torch.nn.functional.pixel_shuffle", {{"upscale_factor", "upscale_factor"}}, {}},
    {{"pixelshuffle.PixelUnshuffle"}, "torch.nn.functional.pixel_unshuffle",
     {{"downscale_factor", "downscale_factor"}}, {}},
    {{"channelshuffle.ChannelShuffle"}, "torch.channel_shuffle", {{"groups", "groups"}}, {}},
};
#undef FX_POOL

const char* const kModules = "torch.nn.modules.";

BoundModule bind_call(const ModuleBinding& b) {
  for (const CallSpec& s : kCallSpecs) {
    bool match = false;
    for (const char* t : s.types) match = match || (t && b.info.type == kModules + std::string(t));
    if (!match) continue;
    Hparams h(b);
    OpRef op(s.target);
    std::vector<std::pair<std::string, Object>> kwargs;
    for (const auto& [kw, v] : s.fixed)
      if (kw) kwargs.emplace_back(kw, std::string(v) == "True" ? Object(Value::boolean(true)) : Object(Value::str(v)));
    for (const auto& [hp, kw] : s.hp)
      if (hp && b.hparam(hp)) kwargs.emplace_back(kw, h.object(hp));
    return [op, kwargs](const OpCall& call) -> Object { return op({call.args.at(0)}, kwargs); };
  }
  throw FxError("no call spec for " + b.info.type);
}

BoundModule bind_embedding(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight");
  if (h.has("max_norm")) throw FxError("Embedding with max_norm is not supported (it renormalises the weight in place)");
  OpRef op("torch.nn.functional.embedding");
  const Object weight(w);  // made once: a call copies a reference
  return [op, weight](const OpCall& call) -> Object { return op({call.args.at(0), weight}); };
}

std::vector<std::string> call_types() {
  std::vector<std::string> out;
  for (const CallSpec& s : kCallSpecs)
    for (const char* t : s.types)
      if (t) out.push_back(kModules + std::string(t));
  return out;
}

const ModuleRegistrar reg_identity{{"torch.nn.modules.linear.Identity", "torch.nn.modules.dropout.Dropout",
                                    "torch.nn.modules.dropout.Dropout1d", "torch.nn.modules.dropout.Dropout2d",
                                    "torch.nn.modules.dropout.Dropout3d", "torch.nn.modules.dropout.AlphaDropout",
                                    "torch.nn.modules.dropout.FeatureAlphaDropout"},
                                   bind_identity};
const ModuleRegistrar reg_flatten{{"torch.nn.modules.flatten.Flatten"}, bind_flatten};
const ModuleRegistrar reg_unflatten{{"torch.nn.modules.flatten.Unflatten"}, bind_unflatten};
const ModuleRegistrar reg_calls{call_types(), bind_call};
const ModuleRegistrar reg_embedding{{"torch.nn.modules.sparse.Embedding"}, bind_embedding};

}  // namespace
}  // namespace fx
