// Tensor helpers shared by the op files: casts, Python numbers as tensors, and the views ops build on.
#pragma once
#include <string>

#include "ops/number.h"
#include "tensor/tensor.h"

namespace fx {

// tensor.to(dtype): `t` itself when the dtype already matches, else a packed converted copy.
// FxError for complex → real: an op that casts its operands to a real compute dtype would silently drop the
// imaginary part; ops that take complex tensors dispatch on them (ops/dispatch.h dispatch_complex).
Tensor to_dtype(const Tensor& t, DType dtype);
// The explicit casts (Tensor.to, .float(), type_as, copy_ into a real tensor): complex → real keeps the real
// part, as torch does (it warns that the imaginary part is discarded).
Tensor to_dtype_discarding_imag(const Tensor& t, DType dtype);
// A zero-dim tensor holding `n` converted to `dtype`.
Tensor scalar_tensor(Number n, DType dtype);
// Whether a Python number fits `dtype` as torch's checked scalar conversion (c10::checked_convert, used by
// full, fill_, masked_fill, index_fill, setitem, pad...) accepts it: integers in range (uint8 also takes
// -255..-1, which wrap, unless `strict_unsigned`), floats to an integer type finite and truncating into
// range, floats to float16/float32 finite only within the largest value, to bfloat16 unless they round to
// inf. bool and float64 take anything.
bool number_fits(Number n, DType dtype, bool strict_unsigned = false);
// As scalar_tensor, but a number that does not fit raises torch's error: "value cannot be converted to
// type int8_t without overflow" (a silent wrap would give -24 for full((3,), 1000, dtype=torch.int8)).
// `check_as` is the dtype whose range is checked (where/scalar_tensor go through float32 for float16).
Tensor checked_scalar_tensor(Number n, DType dtype, bool strict_unsigned = false);
Tensor checked_scalar_tensor(Number n, DType dtype, DType check_as);
// The single value of a one-element tensor as a Python number of the matching kind (tensor.item()).
Number tensor_item(const Tensor& t);

}  // namespace fx
