// Ops whose arguments divide a size, reached with 0 where no golden case from torch can go (torchvision's
// swin helpers, grouped-query attention with a key of 0 heads): an FxError, never a division by zero
// (a trap that would kill a wasm runtime; SIGFPE natively).
#include <gtest/gtest.h>

#include <string>

#include "ops/registry.h"
#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

Object ints(std::initializer_list<int64_t> v) {
  std::vector<Object> items;
  for (int64_t x : v) items.emplace_back(Value::integer(x));
  return Object::list(std::move(items));
}

std::string error_of(const std::string& op, std::vector<Object> args,
                     std::vector<std::pair<std::string, Object>> kwargs = {}) {
  try {
    OpRegistry::global().call(op, std::move(args), std::move(kwargs));
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(ZeroDivisors, SwinWindowAndHeads) {
  const std::string swa = "torchvision.models.swin_transformer.shifted_window_attention";
  Object x(Tensor::zeros({1, 4, 4, 8}, DType::Float32)), qkv(Tensor::zeros({24, 8}, DType::Float32)),
      proj(Tensor::zeros({8, 8}, DType::Float32)), rpb(Tensor::zeros({1, 2, 16, 16}, DType::Float32));
  const Object training{Value::boolean(false)};
  std::string e = error_of(swa, {x, qkv, proj, rpb, ints({0, 4}), Object(Value::integer(2)), ints({0, 0})},
                           {{"training", training}});
  EXPECT_NE(e.find("integer modulo by zero"), std::string::npos) << e;
  e = error_of(swa, {x, qkv, proj, rpb, ints({4, 4}), Object(Value::integer(0)), ints({0, 0})},
               {{"training", training}});
  EXPECT_NE(e.find("division or modulo by zero"), std::string::npos) << e;
}

TEST(ZeroDivisors, AttentionKeyWithNoHeads) {
  Object q(Tensor::zeros({1, 2, 3, 4}, DType::Float32)), k(Tensor::zeros({1, 0, 3, 4}, DType::Float32));
  const std::string e = error_of("torch.nn.functional.scaled_dot_product_attention", {q, k, k},
                                 {{"enable_gqa", Object(Value::boolean(true))}});
  EXPECT_NE(e.find("number of heads in key/value must divide"), std::string::npos) << e;
}

}  // namespace
}  // namespace fx
