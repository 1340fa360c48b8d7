#include "serialize/quantized_json.h"

#include <cmath>
#include <set>
#include <unordered_set>

#include "kernels/half.h"
#include "serialize/limits.h"
#include "support/error.h"
#include "tensor/quantized.h"

namespace fx {
namespace {

[[noreturn]] void bad(const std::string& where, const std::string& message) {
  throw FxError("fxwasm file: " + where + ": " + message);
}

const Json* member(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

int64_t int_field(const Json& e, const char* key, const std::string& where) {
  const Json* j = member(e, key);
  if (!j || !j->is_number_integer()) bad(where, std::string(key) + " is missing or not an integer");
  return j->get<int64_t>();
}

Shape shape_field(const Json& e, const std::string& where) {
  const Json* j = member(e, "shape");
  if (!j || !j->is_array() || j->size() > 16) bad(where, "shape is missing or not a list of at most 16 sizes");
  Shape shape;
  for (const Json& d : *j) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0) bad(where, "shape holds a value that is not a size");
    shape.push_back(d.get<int64_t>());
  }
  try {
    checked_numel(shape);
  } catch (const FxError& e) {
    bad(where, e.bare_message());
  }
  return shape;
}

void expect_tensor(const Tensor& t, DType dtype, const Shape& shape, const std::string& what, const std::string& where) {
  if (t.dtype() != dtype || t.shape() != shape) {
    std::string want = "[", got = "[";
    for (size_t i = 0; i < shape.size(); ++i) want += (i ? ", " : "") + std::to_string(shape[i]);
    for (size_t i = 0; i < t.shape().size(); ++i) got += (i ? ", " : "") + std::to_string(t.shape()[i]);
    bad(where, what + " is " + dtype_safetensors_name(t.dtype()) + " " + got + "]; the scheme needs " +
                   dtype_safetensors_name(dtype) + " " + want + "]");
  }
}

}  // namespace

void read_quantized(const Json& program, const std::unordered_map<std::string, Tensor>& scales, GraphModule& gm) {
  const Json* all = member(program, "quantized");
  if (!all) {
    if (!scales.empty()) bad("program.tensors['" + fxw::clip(scales.begin()->first) + "']", "a quant_scale tensor but the program has no 'quantized' entries");
    return;
  }
  if (!all->is_object()) bad("program.quantized", "must be an object");
  std::unordered_set<std::string> used_scales;
  for (auto it = all->begin(); it != all->end(); ++it) {
    const std::string& name = it.key();
    const std::string where = "program.quantized['" + fxw::clip(name) + "']";
    const Json& e = it.value();
    if (!e.is_object()) bad(where, "must be an object");
    auto found = gm.tensors().find(name);
    if (found == gm.tensors().end()) bad(where, "names no parameter, buffer or constant of the file");
    const Json* scheme_j = member(e, "scheme");
    auto q = std::make_shared<QuantizedWeight>();
    if (!scheme_j || !scheme_j->is_string() || !parse_qscheme(scheme_j->get<std::string>(), &q->scheme))
      bad(where, "scheme is missing or not one of int8, int4, fp16");
    const Json* dtype = member(e, "dtype");
    if (!dtype || !dtype->is_string() || dtype->get<std::string>() != "float32")
      bad(where, "dtype (the weight's own dtype) must be \"float32\"");
    q->shape = shape_field(e, where);
    q->data = found->second.tensor;
    if (q->scheme == QScheme::Float16) {
      if (member(e, "scale")) bad(where, "an fp16 tensor has no scale");
      expect_tensor(q->data, DType::Float16, q->shape, "the stored tensor", where);
    } else {
      if (q->shape.size() != 2 || q->shape[1] == 0) bad(where, "an int8/int4 weight must be 2-D [N, K] with K > 0");
      const int64_t N = q->shape[0], K = q->shape[1];
      const Json* scale_j = member(e, "scale");
      if (!scale_j || !scale_j->is_string()) bad(where, "scale (the name of the scale tensor) is missing or not a string");
      const std::string& scale_name = scale_j->get_ref<const std::string&>();
      auto s = scales.find(scale_name);
      if (s == scales.end()) bad(where, "scale '" + fxw::clip(scale_name) + "' is not a quant_scale tensor of the file");
      if (!used_scales.insert(scale_name).second) bad(where, "scale '" + fxw::clip(scale_name) + "' belongs to another tensor too");
      q->scale = s->second;
      if (q->scheme == QScheme::Int8) {
        if (int_field(e, "axis", where) != 0) bad(where, "int8 scales are per output channel: axis must be 0");
        expect_tensor(q->data, DType::Int8, {N, K}, "the stored tensor", where);
        expect_tensor(q->scale, DType::Float32, {N}, "the scale tensor", where);
        q->scale_f32 = q->scale;
      } else {
        if (int_field(e, "axis", where) != 1 || int_field(e, "block", where) != 32)
          bad(where, "int4 blocks run along the input features: axis must be 1 and block 32");
        const int64_t KB = (K + 31) / 32;
        expect_tensor(q->data, DType::UInt8, {N, KB * 16}, "the stored tensor", where);
        expect_tensor(q->scale, DType::Float16, {N, KB}, "the scale tensor", where);
        q->scale_f32 = Tensor::empty({N, KB}, DType::Float32);
        const uint16_t* h = q->scale.data<uint16_t>();
        float* f = q->scale_f32.data<float>();
        for (int64_t i = 0; i < N * KB; ++i) f[i] = half_to_float(Half{h[i]});
      }
      const float* f = q->scale_f32.data<float>();
      for (int64_t i = 0; i < q->scale_f32.numel(); ++i)
        if (!std::isfinite(f[i])) bad(where, "scale " + std::to_string(i) + " is not finite");
    }
    found->second.tensor = quantized_tensor(std::move(q));
  }
  for (const auto& [name, t] : scales)
    if (!used_scales.count(name))
      bad("program.tensors['" + fxw::clip(name) + "']", "a quant_scale tensor that no program.quantized entry names");
}

std::vector<QuantizedEntry> quantized_entries(const GraphModule& gm) {
  std::vector<QuantizedEntry> out;
  std::set<std::string> taken;
  for (const auto& [name, t] : gm.tensors()) taken.insert(name);
  for (const auto& [name, t] : gm.tensors()) {
    const QuantizedWeight* q = quantized_of(t.tensor);
    if (!q) continue;
    std::string scale;
    if (q->scheme != QScheme::Float16) {
      scale = name + "_scale";
      for (int k = 1; taken.count(scale); ++k) scale = name + "_scale~" + std::to_string(k);
      taken.insert(scale);
    }
    out.push_back({name, scale, q});
  }
  return out;
}

Json quantized_to_json(const std::vector<QuantizedEntry>& entries, Json& tensor_kinds) {
  Json all = Json::object();
  for (const QuantizedEntry& e : entries) {
    Json j = Json::object();
    j["scheme"] = qscheme_name(e.q->scheme);
    j["dtype"] = "float32";
    j["shape"] = e.q->shape;
    if (e.q->scheme == QScheme::Int8) j["axis"] = 0;
    if (e.q->scheme == QScheme::Int4) j["axis"] = 1, j["block"] = 32;
    if (!e.scale_name.empty()) {
      j["scale"] = e.scale_name;
      tensor_kinds[e.scale_name] = "quant_scale";
    }
    all[e.name] = std::move(j);
  }
  return all;
}

}  // namespace fx
