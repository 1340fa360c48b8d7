// What a model holds besides its graph, as the API lists it: the module tree and the named tensors.
#include <nlohmann/json.hpp>

#include "api/model.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {

using ojson = nlohmann::ordered_json;

std::string Model::modules_json() const {
  ojson out = ojson::object();
  for (const auto& [name, info] : gm_->modules()) {
    ojson hparams = ojson::object();
    for (const auto& [k, v] : info.hparams) hparams[k] = value_to_json(v);
    out[name] = ojson{{"type", info.type}, {"hparams", std::move(hparams)}};
  }
  return out.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

std::string Model::tensors_json() const {
  ojson out = ojson::array();
  for (const auto& [name, t] : gm_->tensors()) {
    out.push_back(ojson{{"name", name}, {"kind", tensor_kind_name(t.kind)}, {"shape", t.tensor.shape()},
                        {"dtype", dtype_name(t.tensor.dtype())}, {"bytes", t.tensor.nbytes()}});
  }
  return out.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

const Tensor& Model::tensor(const std::string& name) const {
  auto it = gm_->tensors().find(name);
  if (it != gm_->tensors().end()) return it->second.tensor;
  std::string known;
  size_t shown = 0;
  for (const auto& entry : gm_->tensors()) {
    if (shown++ == 8) {
      known += ", …";
      break;
    }
    known += (known.empty() ? "" : ", ") + entry.first;
  }
  throw FxError("getTensor: no tensor named '" + name + "'" + (known.empty() ? " (the model has none)" : " (it has: " + known + ")"));
}

}  // namespace fx
