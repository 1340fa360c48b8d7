// Shared by the pass tests: loading fixtures, tensors from numbers, and comparing run results.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "program/graph_module.h"
#include "program/object.h"
#include "serialize/reader.h"

namespace fx::testing {

inline std::unique_ptr<GraphModule> load_fixture(const std::string& relative) {
  std::ifstream in(std::string(FXWASM_SOURCE_DIR) + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << relative;
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return read_fxw(bytes.data(), bytes.size());
}

inline Tensor f32(const std::vector<float>& values, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return Tensor::from_bytes(shape, DType::Float32, values.data(), values.size() * sizeof(float));
}

inline std::vector<float> values(const Object& o) {
  const Tensor t = o.tensor().contiguous();
  EXPECT_EQ(t.dtype(), DType::Float32);
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

// max |a - b| over two float32 tensors of the same shape.
inline double max_abs_diff(const Object& a, const Object& b) {
  EXPECT_EQ(a.tensor().shape(), b.tensor().shape());
  const std::vector<float> x = values(a), y = values(b);
  double m = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) m = std::max(m, std::fabs(double(x[i]) - y[i]));
  return m;
}

}  // namespace fx::testing
