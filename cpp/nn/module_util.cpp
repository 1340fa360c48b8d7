#include "nn/module_util.h"

#include "support/error.h"

namespace fx {

bool Hparams::has(const std::string& name) const {
  const Value* v = b_.hparam(name);
  return v && !v->is_none();
}

const Value& Hparams::get(const std::string& name) const {
  const Value* v = b_.hparam(name);
  if (!v) throw FxError("module '" + b_.path + "' (" + b_.info.type + ") has no hyperparameter '" + name + "'");
  return *v;
}

int64_t Hparams::integer(const std::string& name) const {
  const Value& v = get(name);
  if (v.kind() == ValueKind::Bool) return v.as_bool() ? 1 : 0;
  if (v.kind() != ValueKind::Int) throw FxError("hyperparameter '" + name + "' must be an int, got " + v.repr());
  return v.as_int();
}

int64_t Hparams::integer_or(const std::string& name, int64_t fallback) const {
  return has(name) ? integer(name) : fallback;
}

double Hparams::number(const std::string& name) const {
  const Value& v = get(name);
  if (v.kind() != ValueKind::Int && v.kind() != ValueKind::Float && v.kind() != ValueKind::Bool)
    throw FxError("hyperparameter '" + name + "' must be a number, got " + v.repr());
  return v.kind() == ValueKind::Bool ? (v.as_bool() ? 1.0 : 0.0) : v.as_float();
}

double Hparams::number_or(const std::string& name, double fallback) const { return has(name) ? number(name) : fallback; }

bool Hparams::boolean_or(const std::string& name, bool fallback) const {
  if (!has(name)) return fallback;
  const Value& v = get(name);
  if (v.kind() != ValueKind::Bool) throw FxError("hyperparameter '" + name + "' must be a bool, got " + v.repr());
  return v.as_bool();
}

std::string Hparams::str_or(const std::string& name, const std::string& fallback) const {
  if (!has(name)) return fallback;
  const Value& v = get(name);
  if (v.kind() != ValueKind::Str) throw FxError("hyperparameter '" + name + "' must be a str, got " + v.repr());
  return v.as_str();
}

std::vector<int64_t> Hparams::ints(const std::string& name) const {
  const Value& v = get(name);
  if (v.kind() == ValueKind::Int) return {v.as_int()};
  if (!v.is_sequence()) throw FxError("hyperparameter '" + name + "' must be an int or a tuple, got " + v.repr());
  std::vector<int64_t> out;
  for (const Value& x : v.items()) out.push_back(x.as_int());
  return out;
}

Object Hparams::object(const std::string& name) const {
  const Value* v = b_.hparam(name);
  return v ? Object(*v) : Object();
}

Tensor Hparams::tensor(const std::string& name, bool required) const {
  const Tensor* t = b_.tensor(name);
  if (!t && required)
    throw FxError("module '" + b_.path + "' (" + b_.info.type + ") has no tensor '" + name + "'");
  return t ? *t : Tensor();
}

OpRef::OpRef(const std::string& target) : def_(OpRegistry::global().find_function(target)) {
  if (!def_) throw FxError("the runtime has no op " + target + ", which this module needs");
}

Object OpRef::operator()(std::vector<Object> args, std::vector<std::pair<std::string, Object>> kwargs) const {
  OpCall call;
  call.args = std::move(args);
  call.kwargs = std::move(kwargs);
  return def_->run(call);
}

}  // namespace fx
