#include "ops/schema.h"

#include <cstdlib>

#include "support/error.h"

namespace fx {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

Object parse_default(const std::string& text) {
  if (text == "None") return Object();
  if (text == "True") return Object(Value::boolean(true));
  if (text == "False") return Object(Value::boolean(false));
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
    return Object(Value::str(text.substr(1, text.size() - 2)));
  char* end = nullptr;
  long long i = std::strtoll(text.c_str(), &end, 10);
  if (*end == '\0' && !text.empty()) return Object(Value::integer(i));
  double d = std::strtod(text.c_str(), &end);
  if (*end == '\0' && !text.empty()) return Object(Value::floating(d));
  throw FxError("bad default '" + text + "' in an op schema");
}

}  // namespace

Schema::Schema(const std::string& signature) {
  size_t open = signature.find('('), close = signature.rfind(')');
  FX_CHECK(open != std::string::npos && close == signature.size() - 1, "malformed op schema: " + signature);
  op_ = trim(signature.substr(0, open));
  std::string inner = signature.substr(open + 1, close - open - 1);
  bool kw_only = false;
  if (trim(inner).empty()) return;
  for (const std::string& item : split(inner, ',')) {
    if (item == "*") {
      kw_only = true;
      continue;
    }
    Param p;
    p.kw_only = kw_only;
    size_t eq = item.find('=');
    p.names = split(trim(item.substr(0, eq)), '|');
    if (eq != std::string::npos) {
      p.has_default = true;
      p.default_value = parse_default(trim(item.substr(eq + 1)));
    }
    params_.push_back(std::move(p));
  }
  FX_CHECK(params_.size() <= 64, "op schema with more than 64 parameters: " + signature);
  for (const Param& p : params_) positional_ += p.kw_only ? 0 : 1;
}

Args Schema::parse(const OpCall& call) const {
  Args a;
  a.schema_ = this;
  a.values_.resize(params_.size());
  const size_t positional = positional_;
  if (call.args.size() > positional)
    throw FxError(op_ + "() takes " + std::to_string(positional) + " positional argument" +
                  (positional == 1 ? "" : "s") + " but " + std::to_string(call.args.size()) + " were given");
  for (size_t i = 0; i < call.args.size(); ++i) {
    a.values_[i] = call.args[i];
    a.given_ |= uint64_t{1} << i;
  }
  for (const auto& [key, value] : call.kwargs) {
    size_t found = params_.size();
    for (size_t i = 0; i < params_.size() && found == params_.size(); ++i)
      for (const auto& n : params_[i].names)
        if (n == key) found = i;
    if (found == params_.size()) throw FxError(op_ + "() got an unexpected keyword argument '" + key + "'");
    if (a.given(found)) throw FxError(op_ + "() got multiple values for argument '" + key + "'");
    a.values_[found] = value;
    a.given_ |= uint64_t{1} << found;
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    if (a.given(i)) continue;
    if (!params_[i].has_default)
      throw FxError(op_ + "() missing required argument '" + params_[i].names.front() + "'");
    a.values_[i] = params_[i].default_value;
  }
  return a;
}

bool Args::is_none(size_t i) const {
  const Object& o = values_.at(i);
  return o.is_value() && o.value().is_none();
}

void Args::wrong(size_t i, const char* expected) const {
  throw FxError(schema_->op() + "(): argument '" + schema_->param_name(i) + "' must be " + expected +
                ", not " + values_.at(i).describe());
}

const Tensor& Args::tensor(size_t i) const {
  if (!values_.at(i).is_tensor()) wrong(i, "Tensor");
  return values_[i].tensor();
}

Number Args::number(size_t i) const {
  if (!is_number(values_.at(i))) wrong(i, "a number");
  return to_number(values_[i]);
}

int64_t Args::integer(size_t i) const {
  const Object& o = values_.at(i);
  if (!o.is_value() || (o.value().kind() != ValueKind::Int && o.value().kind() != ValueKind::Bool))
    wrong(i, "int");
  return o.value().kind() == ValueKind::Bool ? (o.value().as_bool() ? 1 : 0) : o.value().as_int();
}

bool Args::boolean(size_t i) const {
  const Object& o = values_.at(i);
  if (!o.is_value() || o.value().kind() != ValueKind::Bool) wrong(i, "bool");
  return o.value().as_bool();
}

std::string Args::str(size_t i) const {
  const Object& o = values_.at(i);
  if (!o.is_value() || o.value().kind() != ValueKind::Str) wrong(i, "str");
  return o.value().as_str();
}

std::optional<DType> Args::dtype(size_t i) const {
  if (is_none(i)) return std::nullopt;
  const Object& o = values_.at(i);
  if (!o.is_value() || o.value().kind() != ValueKind::Dtype) wrong(i, "torch.dtype");
  return dtype_from_name(o.value().as_str());
}

std::optional<std::vector<int64_t>> Args::int_list(size_t i) const {
  if (is_none(i)) return std::nullopt;
  const Object& o = values_.at(i);
  auto as_int = [&](const Object& x) {
    if (!x.is_value() || x.value().kind() != ValueKind::Int) wrong(i, "int or tuple of ints");
    return x.value().as_int();
  };
  if (o.is_sequence()) {
    std::vector<int64_t> out;
    for (const Object& x : o.items()) out.push_back(as_int(x));
    return out;
  }
  return std::vector<int64_t>{as_int(o)};
}

}  // namespace fx
